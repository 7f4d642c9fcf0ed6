import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, UpdateUserBody } from '../../../../../contract/system.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateUserRole = ({ id, ...body }: UpdateUserBody & { id: string }) =>
  api<AdminUser>(`/users/${encodeURIComponent(id)}`, { method: 'PUT', body });

export function useUpdateUserRole() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateUserRole, onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.system }) });
}
