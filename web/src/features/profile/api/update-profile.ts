import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicUser } from '../../../../../contract/auth.ts';
import type { UpdateProfileBody } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateProfile = (body: UpdateProfileBody) => api<{ user: PublicUser }>('/profile', { method: 'PATCH', body });

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    // The name shows in the sidebar footer (from /me) and in member lists of every tenant.
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: queryKeys.me });
      qc.invalidateQueries({ queryKey: queryKeys.tenants });
    },
  });
}
