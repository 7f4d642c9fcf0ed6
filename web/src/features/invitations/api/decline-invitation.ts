import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const declineInvitation = (token: string) => api<{ ok: true }>(`/invitations/${encodeURIComponent(token)}/decline`, { method: 'POST', body: {} });

export const useDeclineInvitation = () => useMutation({ mutationFn: declineInvitation });
