import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';

// The digest's reads and its one table (digest_sends). Crossing tenants by nature: a person's digest covers every
// tenant they belong to, so the reads that start from people are named unsafe…; the figures themselves are read per
// tenant through the reports module.

export interface DigestRecipient {
  id: string;
  email: string;
  displayName: string;
  timeZone: string | null;
}

/**
 * People who would get a digest now: an active member of some tenant, email on and the weekly digest on (a person who
 * never saved preferences has the defaults: both on).
 */
export async function unsafeDigestRecipients(db: DB, userIds?: readonly string[]): Promise<DigestRecipient[]> {
  let q = db
    .selectFrom('users')
    .leftJoin('notification_preferences as p', 'p.user_id', 'users.id')
    .where((eb) => eb.exists(eb.selectFrom('tenant_members as m').select(sql`1`.as('one')).whereRef('m.user_id', '=', 'users.id').where('m.status', '=', 'active')))
    .where((eb) => eb.or([eb('p.user_id', 'is', null), eb.and([eb('p.email_enabled', '=', 1), eb('p.email_weekly_digest', '=', 1)])]))
    .select(['users.id', 'users.email', 'users.display_name', 'users.time_zone']);
  if (userIds) {
    if (userIds.length === 0) return [];
    q = q.where('users.id', 'in', [...userIds]);
  }
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, email: r.email, displayName: r.display_name, timeZone: r.time_zone ?? null }));
}

/** Of these (person, week) pairs, those whose digest was sent. */
export async function unsafeSentDigests(db: DB, pairs: ReadonlyArray<{ userId: string; week: string }>): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const weeks = [...new Set(pairs.map((p) => p.week))];
  const sent = new Set<string>();
  for (let i = 0; i < pairs.length; i += 500) {
    const ids = pairs.slice(i, i + 500).map((p) => p.userId);
    const rows = await db.selectFrom('digest_sends').select(['user_id', 'week']).where('status', '=', 'sent').where('week', 'in', weeks).where('user_id', 'in', ids).execute();
    for (const r of rows) sent.add(`${r.user_id}:${r.week}`);
  }
  return sent;
}

/** Claims a person's digest of a week (a row 'sending'); answers whether it still has to be sent (not 'sent' already). */
export async function claimDigest(db: DB, userId: string, week: string, at: string): Promise<boolean> {
  await db
    .insertInto('digest_sends')
    .values({ user_id: userId, week, status: 'sending', created_at: at, sent_at: null })
    .onConflict((oc) => oc.columns(['user_id', 'week']).doNothing())
    .execute();
  const row = await db.selectFrom('digest_sends').select('status').where('user_id', '=', userId).where('week', '=', week).executeTakeFirst();
  return row?.status !== 'sent';
}

export async function markDigestSent(db: DB, userId: string, week: string, at: string) {
  await db.updateTable('digest_sends').set({ status: 'sent', sent_at: at }).where('user_id', '=', userId).where('week', '=', week).execute();
}

/** The tenants a person is an active member of, with their role (owners and admins get the reports link). */
export async function unsafeMembershipsOf(db: DB, userId: string, tenantId?: string) {
  let q = db
    .selectFrom('tenant_members as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .select(['t.id', 't.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .where('m.status', '=', 'active');
  if (tenantId !== undefined) q = q.where('t.id', '=', tenantId);
  return q.orderBy('t.name').orderBy('t.id').execute();
}

export async function unsafeFindUser(db: DB, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'display_name', 'time_zone']).where('id', '=', userId).executeTakeFirst();
}
