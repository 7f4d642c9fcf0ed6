import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssignableRole, TenantMember } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const changeMemberRole = (tenantId: string, memberId: string, role: AssignableRole) =>
  api<TenantMember>(`/tenants/${encodeURIComponent(tenantId)}/members/${encodeURIComponent(memberId)}`, { method: 'PATCH', body: { role } });

export function useChangeMemberRole(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: AssignableRole }) => changeMemberRole(tenantId, memberId, role),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tenantAdmin(tenantId) }),
  });
}
