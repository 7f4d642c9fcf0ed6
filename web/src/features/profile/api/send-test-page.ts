import { useMutation } from '@tanstack/react-query';
import type { PersonalChannel, TestPageResult } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';

/** Sends the signed-in person a test page by one channel; answers what became of it. */
export const sendTestPage = (channel: PersonalChannel) => api<TestPageResult>('/profile/testPage', { method: 'POST', body: { channel } });

export const useSendTestPage = () => useMutation({ mutationFn: sendTestPage });
