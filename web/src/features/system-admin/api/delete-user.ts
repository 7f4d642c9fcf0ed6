import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const deleteUser = (id: string) => api<{ ok: true }>(`/users/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteUser, onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.system }) });
}
