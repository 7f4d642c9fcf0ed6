import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AcceptInvitationResponse } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Accepts, by id and without the link, an invitation addressed to the signed-in user (listed in /me). */
export const acceptPendingInvitation = (id: string) => api<AcceptInvitationResponse>(`/me/invitations/${encodeURIComponent(id)}/accept`, { method: 'POST', body: {} });

export function useAcceptPendingInvitation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: acceptPendingInvitation, onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.me }) });
}
