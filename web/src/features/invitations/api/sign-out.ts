import { api } from '../../../lib/api.ts';

export const signOut = () => api<{ ok: true }>('/auth/sign-out', { method: 'POST', body: {} });
