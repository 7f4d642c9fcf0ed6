import { api } from './api.ts';

/** Emails a link to choose a new password (from the sign-in page, or the profile's Security tab). */
export const requestPasswordReset = (email: string) => api<{ ok: true; message: string }>('/auth/password-reset', { method: 'POST', body: { email } });
