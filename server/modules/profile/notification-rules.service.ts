import { NotificationRule, type NotificationRulesBody, type NotificationRulesResponse } from '../../../contract/profile.ts';
import type { DB } from '../../db/database.ts';
import { now, parseJson } from '../../db/database.ts';
import { deleteRules, findRules, findRulesOfMany, upsertRules } from './notification-rules.repository.ts';

/** Rules as stored, in delay order; anything unreadable is dropped (the person then has the default for it). */
function parseRules(text: string | undefined): NotificationRule[] {
  const raw = parseJson<unknown>(text, []);
  const rules = Array.isArray(raw) ? raw.flatMap((r) => (NotificationRule.safeParse(r).success ? [r as NotificationRule] : [])) : [];
  return sortRules(rules);
}

/** Delay order; rules at the same delay keep the order they were given in. */
const sortRules = (rules: NotificationRule[]) => rules.map((r, i) => ({ r, i })).sort((a, b) => a.r.delayMinutes - b.r.delayMinutes || a.i - b.i).map(({ r }) => r);

/** The signed-in person's notification rules (none: every channel of a level at once, the default). */
export async function getNotificationRules(db: DB, userId: string): Promise<NotificationRulesResponse> {
  const row = await findRules(db, userId);
  return { rules: parseRules(row?.rules), updatedAt: row?.updated_at ?? null };
}

/** Saves the person's rules in delay order; an empty list removes them (back to the default). */
export async function saveNotificationRules(db: DB, userId: string, input: NotificationRulesBody): Promise<NotificationRulesResponse> {
  if (input.rules.length === 0) await deleteRules(db, userId);
  else await upsertRules(db, userId, JSON.stringify(sortRules(input.rules).map(({ channel, delayMinutes }) => ({ channel, delayMinutes }))), now());
  return getNotificationRules(db, userId);
}

/** The rules of many people (paging reads them as a level fires); a person without rules is absent. */
export async function notificationRulesOf(db: DB, userIds: string[]): Promise<Map<string, NotificationRule[]>> {
  const rows = await findRulesOfMany(db, userIds);
  return new Map([...rows].map(([id, row]) => [id, parseRules(row.rules)] as const).filter(([, rules]) => rules.length > 0));
}
