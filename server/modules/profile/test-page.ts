import { PAGING_MSG } from '../../../contract/paging.ts';
import { PERSONAL_CHANNEL_LABELS, TEST_PAGE_MSG, type PersonalChannel, type TestPageResult } from '../../../contract/profile.ts';
import type { DB } from '../../db/database.ts';
import { tooMany } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import type { Message } from '../../notifications/channel.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { listPushTokens } from '../../notifications/contacts.repository.ts';
import { VOICE_MSG } from '../../notifications/channels/voice.ts';

/** Test pages per person: 5 in 10 minutes (each may cost an SMS). */
export const TEST_PAGES_PER_WINDOW = 5;
const testPages = new WindowCounter(TEST_PAGES_PER_WINDOW, 10 * 60_000);


/** Why a channel cannot be used by anyone on this server (a provider not configured), as the notifier says it. */
const NOT_CONFIGURED = new Set<string>([PAGING_MSG.smsNotConfigured, VOICE_MSG.notConfigured]);

/**
 * "Send me a test page" (issue 27): a page-like message to the signed-in person by one channel, through the notifier as
 * an alert page goes (their preferences apply, so a test shows what a page would do), its outcome answered at once.
 */
export async function sendTestPage(deps: { notifier: Notifier; publicUrl: string }, user: SessionUser, channel: PersonalChannel): Promise<TestPageResult> {
  const wait = testPages.blockedFor(user.id);
  if (wait > 0) throw tooMany(TEST_PAGE_MSG.tooMany, wait);
  testPages.hit(user.id);
  const url = `${deps.publicUrl}/app/profile?tab=notifications`;
  const message: Message = {
    purpose: 'alert',
    title: TEST_PAGE_MSG.title,
    text: `${TEST_PAGE_MSG.text}\n\n${url}`,
    summary: TEST_PAGE_MSG.text,
    sms: TEST_PAGE_MSG.sms,
    voice: TEST_PAGE_MSG.voice,
    url,
    pushData: { test: 'true' },
  };
  const [o] = await deps.notifier.notify({ userId: user.id, email: user.email }, message, [channel], true);
  if (o.outcome === 'sent') return { channel, outcome: 'sent', reason: null };
  if (o.outcome === 'skipped' && o.reason && NOT_CONFIGURED.has(o.reason)) return { channel, outcome: 'not_configured', reason: TEST_PAGE_MSG.notConfigured(PERSONAL_CHANNEL_LABELS[channel]) };
  return { channel, outcome: o.outcome === 'skipped' ? 'skipped' : 'failed', reason: o.reason };
}

/** Whether the server holds the push subscription of this endpoint under the user (the browser asks about itself). */
export async function pushSubscriptionStatus(db: DB, userId: string, endpoint: string) {
  const found = (await listPushTokens(db, userId)).find((t) => t.endpoint === endpoint);
  return { subscribed: found !== undefined, updatedAt: found?.updated_at ?? null };
}
