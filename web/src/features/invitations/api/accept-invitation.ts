import { useMutation } from '@tanstack/react-query';
import type { AcceptInvitationResponse } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';

/** The signed-in person accepts from the emailed link. */
export const acceptInvitation = (token: string) => api<AcceptInvitationResponse>(`/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST', body: {} });

export const useAcceptInvitation = () => useMutation({ mutationFn: acceptInvitation });
