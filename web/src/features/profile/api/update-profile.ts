import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MeResponse, PublicUser } from '../../../../../contract/auth.ts';
import type { UpdateProfileBody } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateProfile = (body: UpdateProfileBody) => api<{ user: PublicUser }>('/profile', { method: 'PATCH', body });

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    // The name shows in the sidebar footer (from /me) and in member lists of every tenant. The saved user goes into
    // /me at once, so the form sees its values as stored before the reload comes back.
    onSuccess: ({ user }) => {
      qc.setQueryData<MeResponse | null>(queryKeys.me, (old) => (old && old.user.id === user.id ? { ...old, user } : old));
      qc.invalidateQueries({ queryKey: queryKeys.me });
      qc.invalidateQueries({ queryKey: queryKeys.tenants });
    },
  });
}
