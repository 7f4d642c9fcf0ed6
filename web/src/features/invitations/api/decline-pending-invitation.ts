import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const declinePendingInvitation = (id: string) => api<{ ok: true }>(`/me/invitations/${encodeURIComponent(id)}/decline`, { method: 'POST', body: {} });

export function useDeclinePendingInvitation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: declinePendingInvitation, onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.me }) });
}
