import type { PushSubscriptionBody, UserTokens } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';

/** Stores this browser's push subscription under the signed-in user (userTokens). */
export const savePushToken = (token: PushSubscriptionBody['token']) => api<UserTokens>('/userTokens', { method: 'POST', body: { token } });
