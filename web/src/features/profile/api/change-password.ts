import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';

export const changePassword = (body: ChangePasswordBody) => api<{ ok: true }>('/profile/password', { method: 'POST', body });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
