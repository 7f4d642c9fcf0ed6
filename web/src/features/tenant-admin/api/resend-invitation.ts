import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteMemberResponse } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const resendInvitation = (tenantId: string, memberId: string) =>
  api<InviteMemberResponse>(`/tenants/${encodeURIComponent(tenantId)}/members/${encodeURIComponent(memberId)}/resend`, { method: 'POST', body: {} });

export function useResendInvitation(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) => resendInvitation(tenantId, memberId),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tenantAdmin(tenantId) }),
  });
}
