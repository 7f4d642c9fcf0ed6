import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Emails a one-time sign-in link when the account exists; the answer is the same either way. */
export const requestSignInLink = (email: string) => api<{ ok: true; message: string }>('/auth/sign-in-link', { body: { email } });

export const useRequestSignInLink = () => useMutation({ mutationFn: requestSignInLink });
