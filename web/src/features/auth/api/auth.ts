import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface RegistrationInput {
  userData: { email: string; password: string; displayName: string };
  tenantData: { name: string; plan: string };
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegistrationInput) => api<{ userId: string; tenantId: string }>('/functions/registerUserWithTenant', { body }),
  });
}

export function useRegisterGoogle() {
  return useMutation({
    mutationFn: (body: { tenantData: { name: string; plan: string } }) =>
      api<{ userId: string; tenantId: string }>('/functions/registerGoogleUserWithTenant', { body }),
  });
}

export const confirmPasswordReset = (token: string, password: string) => api<{ ok: true }>('/auth/password-reset/confirm', { body: { token, password } });
