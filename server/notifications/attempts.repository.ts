import type { DB } from '../db/database.ts';
import type { NotificationAttemptsTable } from '../db/schema.ts';
import { bulkInsert, chunks, isPostgres, pgWriteAtOnce, ROWS_PER_STATEMENT, type BulkInsert } from '../db/bulk-insert.ts';

// The record of every page: one row per (alert, step, person, channel), unique, so a page is sent at most once per
// step. 'sending' is a page handed to its provider whose outcome is not written yet; 'pending' a transient failure
// waiting for its retry; 'sent', 'failed' and 'skipped' (with the reason) are final.

export type AttemptKey = Pick<NotificationAttemptsTable, 'tenant_id' | 'alert_id' | 'step' | 'user_id' | 'channel'>;

export type AttemptRow = NotificationAttemptsTable;
export const attemptKey = (k: Pick<AttemptKey, 'alert_id' | 'step' | 'user_id' | 'channel'>) => `${k.alert_id}|${k.step}|${k.user_id}|${k.channel}`;

/**
 * The attempts already recorded for a batch of (alert, step, person, channel) keys, keyed by `attemptKey` (one
 * statement per 500 keys). One that is not 'pending' was finished by an earlier run: nothing is sent again; 'pending'
 * is a transient failure waiting for its retry.
 */
export async function findAttempts(db: DB, keys: AttemptKey[]): Promise<Map<string, AttemptRow>> {
  const out = new Map<string, AttemptRow>();
  for (const part of chunks(keys)) {
    const wanted = new Set(part.map(attemptKey));
    const rows = await db
      .selectFrom('notification_attempts')
      .selectAll()
      .where('tenant_id', 'in', [...new Set(part.map((k) => k.tenant_id))])
      .where('alert_id', 'in', [...new Set(part.map((k) => k.alert_id))])
      .where('step', 'in', [...new Set(part.map((k) => k.step))])
      .where('user_id', 'in', [...new Set(part.map((k) => k.user_id))])
      .execute();
    for (const row of rows) if (wanted.has(attemptKey(row))) out.set(attemptKey(row), row);
  }
  return out;
}

/**
 * Records the outcomes of many attempts, one statement per 500: an insert that, on the attempt's unique key (alert,
 * step, person, channel), updates the row an earlier try left instead (outcome, reason, provider id, tries, time).
 */
export async function recordAttempts(db: DB, rows: AttemptRow[]) {
  await bulkInsert(db, ATTEMPT_INSERT, rows);
}

/**
 * PostgreSQL, at most 500 attempts: records them and deletes the finished jobs (by this claim's token) in one
 * statement, atomic on its own (no transaction needed); false when it cannot (SQLite, more rows).
 */
export async function recordOutcomesAtOnce(db: DB, attempts: AttemptRow[], done: { ids: string[]; token: string } | null): Promise<boolean> {
  if (!isPostgres(db) || attempts.length > ROWS_PER_STATEMENT) return false;
  await pgWriteAtOnce(
    db,
    [{ spec: ATTEMPT_INSERT as BulkInsert<never>, rows: attempts }],
    done && done.ids.length ? { text: (n) => `delete from "jobs" where "lock_token" = $${n} and "id" = any($${n + 1}::text[])`, params: [done.token, done.ids] } : undefined,
  );
  return true;
}

const ATTEMPT_INSERT: BulkInsert<AttemptRow> = {
  table: 'notification_attempts',
  columns: [
    ['id', 'text'],
    ['tenant_id', 'text'],
    ['alert_id', 'text'],
    ['step', 'text'],
    ['level', 'int'],
    ['user_id', 'text'],
    ['channel', 'text'],
    ['outcome', 'text'],
    ['reason', 'text'],
    ['provider_id', 'text'],
    ['tries', 'int'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
    ['short_code', 'text'],
    ['fallback_from', 'text'],
  ],
  tail:
    'on conflict ("alert_id", "step", "user_id", "channel") do update set "outcome" = excluded."outcome", "reason" = excluded."reason", ' +
    '"provider_id" = excluded."provider_id", "tries" = excluded."tries", "updated_at" = excluded."updated_at"',
};

/**
 * What each (person, channel) got since `since`, keyed `${userId}|${channel}`: how many pages (sent, on their way, or
 * kept for or sent in a summary) and how many of those were summed up, counted up to `cap`. A storm is a person past
 * PAGE_STORM_LIMIT pages within a minute, and lasts while their pages are summed up: with the limit as the cap, a full
 * count means no room whatever the rest are, and a count short of it has seen them all. So a person in a storm (tens of
 * thousands of held pages within the minute) costs a few rows read, not all of them.
 */
export async function unsafeCountRecentPages(db: DB, pairs: Array<{ userId: string; channel: AttemptRow['channel'] }>, since: string, cap: number): Promise<Map<string, { pages: number; summed: number }>> {
  const out = new Map<string, { pages: number; summed: number }>();
  const seen = new Set<string>();
  for (const { userId, channel } of pairs) {
    const key = `${userId}|${channel}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const rows = await db
      .selectFrom('notification_attempts')
      .select('outcome')
      .where('user_id', '=', userId)
      .where('updated_at', '>', since)
      .where('channel', '=', channel)
      .where('outcome', 'in', ['sent', 'sending', 'held', 'summarized'])
      .limit(cap)
      .execute();
    if (rows.length) out.set(key, { pages: rows.length, summed: rows.filter((r) => r.outcome === 'held' || r.outcome === 'summarized').length });
  }
  return out;
}

/** The channels each (alert, step, person) was paged by, and what made each page, keyed `${alertId}|${step}|${userId}`. */
export async function findStepChannels(db: DB, keys: Array<Pick<AttemptKey, 'tenant_id' | 'alert_id' | 'step' | 'user_id'>>) {
  const out = new Map<string, Array<Pick<AttemptRow, 'channel' | 'fallback_from'>>>();
  for (const part of chunks(keys)) {
    const wanted = new Set(part.map((k) => `${k.alert_id}|${k.step}|${k.user_id}`));
    const rows = await db
      .selectFrom('notification_attempts')
      .select(['alert_id', 'step', 'user_id', 'channel', 'fallback_from'])
      .where('tenant_id', 'in', [...new Set(part.map((k) => k.tenant_id))])
      .where('alert_id', 'in', [...new Set(part.map((k) => k.alert_id))])
      .where('user_id', 'in', [...new Set(part.map((k) => k.user_id))])
      .execute();
    for (const r of rows) {
      const key = `${r.alert_id}|${r.step}|${r.user_id}`;
      if (wanted.has(key)) out.set(key, [...(out.get(key) ?? []), { channel: r.channel, fallback_from: r.fallback_from }]);
    }
  }
  return out;
}

/** The outcomes of one step's pages of each alert (tenant-scoped), keyed by alert id. */
export async function findStepOutcomes(db: DB, alerts: Array<{ tenant_id: string; alert_id: string }>, step: string): Promise<Map<string, AttemptRow['outcome'][]>> {
  const out = new Map<string, AttemptRow['outcome'][]>();
  const byTenant = new Map<string, Set<string>>();
  for (const a of alerts) byTenant.set(a.tenant_id, (byTenant.get(a.tenant_id) ?? new Set()).add(a.alert_id));
  for (const [tenantId, ids] of byTenant)
    for (const part of chunks([...ids])) {
      const rows = await db.selectFrom('notification_attempts').select(['alert_id', 'outcome']).where('tenant_id', '=', tenantId).where('alert_id', 'in', part).where('step', '=', step).execute();
      for (const r of rows) out.set(r.alert_id, [...(out.get(r.alert_id) ?? []), r.outcome]);
    }
  return out;
}

/** A person's pages on a channel kept for their summary (oldest first, at most `limit`), with their alerts' clients. */
export async function unsafeListHeldPages(db: DB, tenantId: string, userId: string, channel: AttemptRow['channel'], limit: number) {
  return db
    .selectFrom('notification_attempts as n')
    .innerJoin('alerts as a', 'a.id', 'n.alert_id')
    .leftJoin('clients as c', 'c.id', 'a.client_id')
    .selectAll('n')
    .select(['a.status as alert_status', 'c.name as client_name'])
    .where('n.user_id', '=', userId)
    .where('n.channel', '=', channel)
    .where('n.outcome', '=', 'held')
    .where('n.tenant_id', '=', tenantId)
    .orderBy('n.updated_at')
    .limit(limit)
    .execute();
}

export async function listAttempts(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('notification_attempts').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('created_at').execute();
}

/**
 * The pages of an alert as its timeline shows them: every attempt with an outcome (sent, failed, or skipped with the
 * reason; not one waiting for its retry or on its way), at the time of that outcome, with the name the person has now. A skipped
 * subscription notice (a channel the subscriber has off) is no news for the timeline. The attempt rows are the record:
 * no timeline entry is stored per page (older 'paged' entries are not read).
 */
export async function listPageOutcomes(db: DB, tenantId: string, alertId: string) {
  return db
    .selectFrom('notification_attempts as n')
    .leftJoin('users as u', 'u.id', 'n.user_id')
    .select(['n.id', 'n.step', 'n.level', 'n.user_id', 'n.channel', 'n.outcome', 'n.reason', 'n.updated_at', 'u.display_name', 'u.email'])
    .where('n.tenant_id', '=', tenantId)
    .where('n.alert_id', '=', alertId)
    .where('n.outcome', 'not in', ['pending', 'sending', 'held'])
    .where((eb) => eb.not(eb.and([eb('n.step', '=', 'subscription'), eb('n.outcome', '=', 'skipped')])))
    .orderBy('n.updated_at')
    .orderBy('n.id')
    .execute();
}

