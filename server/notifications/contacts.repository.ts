import { randomUUID } from 'node:crypto';
import type { DB } from '../db/database.ts';
import { chunks, readByKeys } from '../db/bulk-insert.ts';
import type { NotificationPreferencesTable } from '../db/schema.ts';
import type { PushTarget } from './channel.ts';
import { preferenceColumns, type ChannelPreferences } from './preferences.ts';

// How a person is reached: their saved channel preferences and their browsers' push subscriptions. Rows belong to the
// person (user_id), not to a tenant: one person's settings apply in every tenant they belong to.

/** The most push subscriptions kept per user; saving one more drops the least recently refreshed. */
export const MAX_PUSH_TOKENS_PER_USER = 20;

export async function findPreferences(db: DB, userId: string) {
  return db.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Saved notification preferences of many people (a person without a row has the defaults). */
export async function findPreferencesOfMany(db: DB, userIds: string[]): Promise<Map<string, NotificationPreferencesTable>> {
  return readByKeys(userIds, (part) => db.selectFrom('notification_preferences').selectAll().where('user_id', 'in', part).execute(), (row) => row.user_id);
}

export async function upsertPreferences(trx: DB, userId: string, prefs: ChannelPreferences, at: string) {
  const values = { ...preferenceColumns(prefs), updated_at: at };
  await trx
    .insertInto('notification_preferences')
    .values({ user_id: userId, created_at: at, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** Saves a browser's push subscription under the user; a browser that changed hands moves to its new user. */
export async function savePushToken(db: DB, userId: string, sub: { endpoint: string; p256dh: string; auth: string; userAgent: string | null }, at: string) {
  await db
    .insertInto('user_tokens')
    .values({ id: randomUUID(), user_id: userId, endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth, user_agent: sub.userAgent, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, p256dh: sub.p256dh, auth: sub.auth, user_agent: sub.userAgent, updated_at: at }))
    .execute();
}

/** Drops the user's push subscriptions beyond MAX_PUSH_TOKENS_PER_USER, the least recently refreshed first. */
export async function trimPushTokens(db: DB, userId: string) {
  const stale = await db
    .selectFrom('user_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .offset(MAX_PUSH_TOKENS_PER_USER)
    .limit(1000)
    .execute();
  if (stale.length) await db.deleteFrom('user_tokens').where('id', 'in', stale.map((s) => s.id)).execute();
}

export async function listPushTokens(db: DB, userId: string) {
  return db.selectFrom('user_tokens').select(['endpoint', 'created_at', 'updated_at']).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

/** The push subscriptions of many people, each person's oldest first. */
export async function listPushTargetsOfMany(db: DB, userIds: string[]): Promise<Map<string, PushTarget[]>> {
  const out = new Map<string, PushTarget[]>();
  for (const part of chunks([...new Set(userIds)])) {
    const rows = await db
      .selectFrom('user_tokens')
      .select(['user_id', 'endpoint', 'p256dh', 'auth'])
      .where('user_id', 'in', part)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const { user_id, ...target } of rows) out.set(user_id, [...(out.get(user_id) ?? []), target]);
  }
  return out;
}

export async function deletePushToken(db: DB, userId: string, endpoint: string) {
  await db.deleteFrom('user_tokens').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}
