import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { NotificationPreferencesTable } from '../../db/schema.ts';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  PRIORITIES,
  type AlertSubscription,
  type NotificationPreferences,
  type Priority,
} from '../../../contract/profile.ts';

/** The most push subscriptions kept per user; saving one more drops the least recently refreshed. */
export const MAX_PUSH_TOKENS_PER_USER = 20;

export async function findPreferences(db: DB, userId: string) {
  return db.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

const bool = (n: number) => n === 1;

/** Channel settings from their row, or the defaults of spec section 9 when the user never saved any. */
export function toChannelPreferences(row: NotificationPreferencesTable | undefined): Omit<NotificationPreferences, 'alertSubscriptions'> {
  if (!row) {
    const { alertSubscriptions: _unused, ...defaults } = DEFAULT_NOTIFICATION_PREFERENCES;
    return structuredClone(defaults);
  }
  const types = parseJson<string[]>(row.sms_alert_types, []).filter((p): p is Priority => (PRIORITIES as readonly string[]).includes(p));
  return {
    email: {
      enabled: bool(row.email_enabled),
      alertNotifications: bool(row.email_alert_notifications),
      weeklyDigest: bool(row.email_weekly_digest),
      systemUpdates: bool(row.email_system_updates),
    },
    sms: { enabled: bool(row.sms_enabled), alertTypes: types },
    push: { enabled: bool(row.push_enabled) },
    phoneNumber: row.phone_number,
  };
}

export async function upsertPreferences(trx: DB, userId: string, prefs: Omit<NotificationPreferences, 'alertSubscriptions'>, at: string) {
  const values = {
    email_enabled: prefs.email.enabled ? 1 : 0,
    email_alert_notifications: prefs.email.alertNotifications ? 1 : 0,
    email_weekly_digest: prefs.email.weeklyDigest ? 1 : 0,
    email_system_updates: prefs.email.systemUpdates ? 1 : 0,
    sms_enabled: prefs.sms.enabled ? 1 : 0,
    sms_alert_types: JSON.stringify(prefs.sms.alertTypes),
    push_enabled: prefs.push.enabled ? 1 : 0,
    phone_number: prefs.phoneNumber,
    updated_at: at,
  };
  await trx
    .insertInto('notification_preferences')
    .values({ user_id: userId, created_at: at, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** The user's alert subscriptions in one tenant; client subscriptions carry the client's name. */
export async function listSubscriptions(db: DB, tenantId: string, userId: string): Promise<AlertSubscription[]> {
  const rows = await db
    .selectFrom('alert_subscriptions as s')
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 's.client_id').on('c.tenant_id', '=', tenantId))
    .select(['s.type', 's.client_id', 's.value', 'c.name as client_name'])
    .where('s.tenant_id', '=', tenantId)
    .where('s.user_id', '=', userId)
    .execute();
  // A stable order whatever order they were saved in: clients by name, priorities by severity, tags alphabetically.
  const clients: AlertSubscription[] = rows
    .filter((r) => r.type === 'client' && r.client_id)
    .sort((a, b) => (a.client_name ?? '').localeCompare(b.client_name ?? ''))
    .map((r) => ({ type: 'client', id: r.client_id!, name: r.client_name ?? undefined }));
  const priorities: AlertSubscription[] = PRIORITIES.filter((p) => rows.some((r) => r.type === 'priority' && r.value === p)).map((p) => ({ type: 'priority', value: p }));
  const tags: AlertSubscription[] = rows
    .flatMap((r) => (r.type === 'tag' && r.value ? [r.value] : []))
    .sort()
    .map((value) => ({ type: 'tag', value }));
  return [...clients, ...priorities, ...tags];
}

/** Every alert subscription of the user in this tenant (saving replaces them; leaving the tenant ends them). */
export async function deleteSubscriptions(trx: DB, tenantId: string, userId: string) {
  await trx.deleteFrom('alert_subscriptions').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
}

export async function replaceSubscriptions(trx: DB, tenantId: string, userId: string, subs: AlertSubscription[], at: string) {
  await deleteSubscriptions(trx, tenantId, userId);
  if (subs.length === 0) return;
  await trx
    .insertInto('alert_subscriptions')
    .values(
      subs.map((s) => ({
        id: randomUUID(),
        tenant_id: tenantId,
        user_id: userId,
        type: s.type,
        client_id: s.type === 'client' ? s.id : null,
        value: s.type === 'client' ? null : s.value,
        created_at: at,
      })),
    )
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

/** A user's push subscriptions with their keys, to send to (the escalation engine). */
export async function listPushTargets(db: DB, userId: string) {
  return db.selectFrom('user_tokens').select(['endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export async function deletePushToken(db: DB, userId: string, endpoint: string) {
  await db.deleteFrom('user_tokens').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}
