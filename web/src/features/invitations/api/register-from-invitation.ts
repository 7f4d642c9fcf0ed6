import { useMutation } from '@tanstack/react-query';
import type { MeResponse } from '../../../../../contract/auth.ts';
import type { AcceptInvitationResponse, RegisterFromInvitationBody } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';

/** A new person joins from the link with a name and password, and is signed in. */
export const registerFromInvitation = (token: string, body: RegisterFromInvitationBody) =>
  api<AcceptInvitationResponse & { me: MeResponse }>(`/invitations/${encodeURIComponent(token)}/register`, { method: 'POST', body });

export const useRegisterFromInvitation = () => useMutation({ mutationFn: ({ token, ...body }: RegisterFromInvitationBody & { token: string }) => registerFromInvitation(token, body) });
