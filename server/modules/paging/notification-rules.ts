import type { NotificationRule } from '../../../contract/profile.ts';
import type { DB } from '../../db/database.ts';
import type { NewJob } from '../../jobs/jobs.repository.ts';
import { notificationRulesOf } from '../profile/notification-rules.service.ts';
import { groupBy } from './batches.ts';
import { packPages, PAGE_JOB_TRIES, PAGES_JOB, type Page } from './page-delivery.ts';

// Personal notification rules (issue 27): a level's channels say which channels the policy allows, the person's rules
// say when (a voice call counts as allowed where SMS is: both reach the person's phone). A person without rules, or
// whose rules name none of the level's channels, is paged as before: every channel of the level at once (nobody is
// left unpaged by a rule that does not fit the policy).

const MINUTE = 60_000;

/** The level channel that allows a rule's channel: a call reaches the same phone as an SMS, so a level allowing SMS allows it. */
const levelChannelFor = (channel: NotificationRule['channel']) => (channel === 'voice' ? 'sms' : channel);

/** A page with the delay its person's rules give it (absent: at once). */
export type RuledPage = Page & { delayMinutes?: number };

/**
 * A fired level's pages as each person's rules have them (pure): per person and step, the rules whose channel the level
 * allows, in rule order, each page at its rule's delay; the level's other channels are not paged.
 */
export function applyRules(pages: Page[], rulesOf: (userId: string) => NotificationRule[] | undefined): RuledPage[] {
  const out: RuledPage[] = [];
  for (const group of groupBy(pages, (p) => `${p.alertId}|${p.step}|${p.userId}`).values()) {
    const allowed = (rulesOf(group[0].userId) ?? []).filter((r) => group.some((p) => p.channel === levelChannelFor(r.channel)));
    if (allowed.length === 0) {
      out.push(...group);
      continue;
    }
    for (const r of allowed) {
      const page = { ...group.find((p) => p.channel === levelChannelFor(r.channel))!, channel: r.channel };
      out.push(r.delayMinutes > 0 ? { ...page, delayMinutes: r.delayMinutes } : page);
    }
  }
  return out;
}

/**
 * Reads people's rules for one sweep's transaction, each person once; answers the look-up `applyRules` takes.
 */
export function rulesReader(db: DB) {
  const known = new Map<string, NotificationRule[] | undefined>();
  return async (userIds: string[]) => {
    const missing = [...new Set(userIds)].filter((id) => !known.has(id));
    if (missing.length) {
      const read = await notificationRulesOf(db, missing);
      for (const id of missing) known.set(id, read.get(id));
    }
    return (userId: string) => known.get(userId);
  };
}

/**
 * Splits a sweep's pages into those sent now and the delayed ones, which become page jobs due at their delay (one per
 * page, keyed by it; durable, like every job). Each carries its alert, so acknowledging (or resolving) it deletes them
 * with the alert's other jobs; one that runs after all finds the alert no longer new and sends nothing.
 */
export function splitDelayed(pages: RuledPage[], now: Date): { now: Page[]; later: NewJob[] } {
  const at: Page[] = [];
  const later: NewJob[] = [];
  for (const { delayMinutes, ...page } of pages) {
    if (!delayMinutes) {
      at.push(page);
      continue;
    }
    later.push({
      kind: PAGES_JOB,
      uniqueKey: `pages:rule:${page.alertId}:${page.step}:${page.userId}:${page.channel}`,
      dueAt: new Date(now.getTime() + delayMinutes * MINUTE),
      payload: packPages([page]),
      tenantId: page.tenantId,
      alertId: page.alertId,
      maxAttempts: PAGE_JOB_TRIES,
    });
  }
  return { now: at, later };
}
