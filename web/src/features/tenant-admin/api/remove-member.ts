import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Removes a member, or revokes a pending invitation (same endpoint). */
export const removeMember = (tenantId: string, memberId: string) =>
  api<{ ok: true }>(`/tenants/${encodeURIComponent(tenantId)}/members/${encodeURIComponent(memberId)}`, { method: 'DELETE' });

export function useRemoveMember(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) => removeMember(tenantId, memberId),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tenantAdmin(tenantId) }),
  });
}
