import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const sendResetEmail = (email: string) => api<{ ok: true; message: string }>('/auth/password-reset', { method: 'POST', body: { email } });

export const useSendResetEmail = () => useMutation({ mutationFn: sendResetEmail });
