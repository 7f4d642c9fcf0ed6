import { useMutation } from '@tanstack/react-query';
import type { MeResponse } from '../../../../../contract/auth.ts';
import { api } from '../../../lib/api.ts';

/** Sign-in from the invitation page (an invitee with an account signs in, then accepts). */
export const signIn = (body: { email: string; password: string }) => api<MeResponse>('/auth/sign-in', { body });

export const useInvitationSignIn = () => useMutation({ mutationFn: signIn });
