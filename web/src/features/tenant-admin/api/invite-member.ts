import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteMemberBody, InviteMemberResponse } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const inviteMember = (tenantId: string, body: InviteMemberBody) =>
  api<InviteMemberResponse>(`/tenants/${encodeURIComponent(tenantId)}/members`, { method: 'POST', body });

export function useInviteMember(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteMemberBody) => inviteMember(tenantId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tenantAdmin(tenantId) }),
  });
}
