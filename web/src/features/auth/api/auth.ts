import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse, PublicConfig } from '../../../../../contract/auth.ts';
import { api } from '../../../lib/api.ts';

export const useServerConfig = () =>
  useQuery({ queryKey: ['config'], queryFn: () => api<PublicConfig>('/config'), staleTime: Infinity });

export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => api<MeResponse>('/auth/sign-in', { body }),
    onSuccess: (me) => qc.setQueryData(['me'], me),
  });
}

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

export const requestPasswordReset = (email: string) => api<{ ok: true; message: string }>('/auth/password-reset', { body: { email } });
export const confirmPasswordReset = (token: string, password: string) => api<{ ok: true }>('/auth/password-reset/confirm', { body: { token, password } });
