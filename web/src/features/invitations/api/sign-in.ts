import { useMutation } from '@tanstack/react-query';
import { signIn } from '../../../lib/session.tsx';

/**
 * Sign-in from the invitation page (an invitee with an account signs in, then accepts). The session is not put into
 * the cache here: the form would be replaced mid-way by the signed-in view before the invitation is accepted.
 */
export const useInvitationSignIn = () => useMutation({ mutationFn: signIn });
