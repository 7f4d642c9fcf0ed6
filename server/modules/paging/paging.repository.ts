import { sql } from 'kysely';
import type { DB, Dialect } from '../../db/database.ts';
import type { AckTokensTable, AlertEventsTable, AlertsTable, EscalationPoliciesTable, NotificationAttemptsTable, NotificationPreferencesTable } from '../../db/schema.ts';
import { timeOrderedUuid as timeOrderedId } from '../../lib/ids.ts';
import { chunks } from '../../jobs/jobs.repository.ts';
import type { PushTarget } from './transports.ts';

/** What the engine reads of an alert. */
export type PagedAlert = Pick<
  AlertsTable,
  'id' | 'tenant_id' | 'client_id' | 'integration_id' | 'title' | 'description' | 'priority' | 'status' | 'source' | 'created_at' | 'tags'
> & { escalation_state: string; escalation_level: number; escalation_policy_id: string | null; overdue_at: string | null };

const ALERT_COLUMNS = [
  'id',
  'tenant_id',
  'client_id',
  'integration_id',
  'title',
  'description',
  'priority',
  'status',
  'source',
  'created_at',
  'tags',
  'escalation_state',
  'escalation_level',
  'escalation_policy_id',
  'overdue_at',
] as const;

/**
 * Alerts whose escalation has not started yet, oldest first, locked for this transaction: on PostgreSQL another
 * instance's sweep skips them (SKIP LOCKED); SQLite writes one transaction at a time.
 */
export async function lockPendingAlerts(trx: DB, dialect: Dialect, limit: number): Promise<PagedAlert[]> {
  const rows = await trx
    .selectFrom('alerts')
    .select(ALERT_COLUMNS)
    .where(sql.ref('escalation_state'), '=', sql.lit('pending'))
    .orderBy('created_at')
    .limit(limit)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked())
    .execute();
  return rows as PagedAlert[];
}

/** Alerts by id, for a batch of jobs (one statement per 500); the caller checks each row's tenant against its job's. */
export async function findPagedAlerts(db: DB, alertIds: string[]): Promise<Map<string, PagedAlert>> {
  const out = new Map<string, PagedAlert>();
  for (const part of chunks([...new Set(alertIds)])) {
    const rows = await db.selectFrom('alerts').select(ALERT_COLUMNS).where('id', 'in', part).execute();
    for (const row of rows) out.set(row.id, row as PagedAlert);
  }
  return out;
}

export type EscalationValues = {
  escalation_state?: 'pending' | 'running' | 'none' | 'stopped';
  escalation_level?: number;
  escalation_policy_id?: string | null;
  overdue_at?: string;
};

/** The same escalation values on many alerts of a tenant (one statement per 500). */
export async function setEscalationMany(db: DB, tenantId: string, alertIds: string[], values: EscalationValues) {
  for (const part of chunks(alertIds)) await db.updateTable('alerts').set(values).where('tenant_id', '=', tenantId).where('id', 'in', part).execute();
}

export interface SystemEvent {
  tenantId: string;
  alertId: string;
  at: string;
  kind: AlertEventsTable['kind'];
  actorName?: string;
  detail: Record<string, unknown>;
}

/** Appends system entries to alerts' timelines (a multi-row insert per 500). */
export async function insertSystemEvents(db: DB, events: SystemEvent[]) {
  for (const part of chunks(events))
    await db
      .insertInto('alert_events')
      .values(
        part.map((e) => ({
          id: timeOrderedId(),
          tenant_id: e.tenantId,
          alert_id: e.alertId,
          at: e.at,
          kind: e.kind,
          actor_type: 'system' as const,
          actor_id: null,
          actor_name: e.actorName ?? 'Alertdesk',
          detail: JSON.stringify(e.detail),
        })),
      )
      .execute();
}

/**
 * The subscribers of each of a batch of new alerts, in one statement per tenant: active members whose profile alert
 * subscription names the alert's client, its priority or one of its (lowercased, first 50) tags. The subscriptions
 * that could match any alert of the batch are read, then matched to each alert here.
 */
export async function findSubscribersOfMany(
  db: DB,
  alerts: Array<{ id: string; tenantId: string; clientId: string | null; priority: string; tags: string[] }>,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const byTenant = new Map<string, typeof alerts>();
  for (const a of alerts) {
    const list = byTenant.get(a.tenantId);
    if (list) list.push(a);
    else byTenant.set(a.tenantId, [a]);
  }
  for (const [tenantId, list] of byTenant) {
    const tagsOf = new Map(list.map((a) => [a.id, new Set(a.tags.map((t) => t.toLowerCase()).slice(0, 50))]));
    const clients = [...new Set(list.flatMap((a) => (a.clientId ? [a.clientId] : [])))];
    const priorities = [...new Set(list.map((a) => a.priority))];
    const tags = [...new Set([...tagsOf.values()].flatMap((t) => [...t]))];
    const rows = await db
      .selectFrom('alert_subscriptions as s')
      .innerJoin('tenant_members as m', (j) => j.onRef('m.user_id', '=', 's.user_id').onRef('m.tenant_id', '=', 's.tenant_id'))
      .select(['s.user_id', 's.type', 's.client_id', 's.value'])
      .where('s.tenant_id', '=', tenantId)
      .where('m.status', '=', 'active')
      .where((eb) =>
        eb.or([
          // Past 500 distinct clients or tags in one batch, every subscription of that type is read and matched here.
          ...(clients.length ? [eb.and([eb('s.type', '=', 'client'), ...(clients.length <= 500 ? [eb('s.client_id', 'in', clients)] : [])])] : []),
          eb.and([eb('s.type', '=', 'priority'), eb('s.value', 'in', priorities)]),
          ...(tags.length ? [eb.and([eb('s.type', '=', 'tag'), ...(tags.length <= 500 ? [eb('s.value', 'in', tags)] : [])])] : []),
        ]),
      )
      .execute();
    for (const a of list) {
      const tagSet = tagsOf.get(a.id)!;
      const users = new Set<string>();
      for (const r of rows)
        if (
          (r.type === 'client' && a.clientId !== null && r.client_id === a.clientId) ||
          (r.type === 'priority' && r.value === a.priority) ||
          (r.type === 'tag' && r.value !== null && tagSet.has(r.value))
        )
          users.add(r.user_id);
      out.set(a.id, [...users]);
    }
  }
  return out;
}

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
  for (const part of chunks(rows))
    await db
      .insertInto('notification_attempts')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['alert_id', 'step', 'user_id', 'channel']).doUpdateSet((eb) => ({
          outcome: eb.ref('excluded.outcome'),
          reason: eb.ref('excluded.reason'),
          provider_id: eb.ref('excluded.provider_id'),
          tries: eb.ref('excluded.tries'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
}

export async function listAttempts(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('notification_attempts').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('created_at').execute();
}

/** Many acknowledge links' tokens at once (a multi-row insert per 500). */
export async function insertAckTokens(db: DB, rows: Array<Omit<AckTokensTable, 'used_at'>>) {
  for (const part of chunks(rows)) await db.insertInto('ack_tokens').values(part.map((r) => ({ ...r, used_at: null }))).execute();
}

/** Saved notification preferences of many people (a person without a row has the defaults). */
export async function findPreferencesOfMany(db: DB, userIds: string[]): Promise<Map<string, NotificationPreferencesTable>> {
  const out = new Map<string, NotificationPreferencesTable>();
  for (const part of chunks([...new Set(userIds)])) {
    const rows = await db.selectFrom('notification_preferences').selectAll().where('user_id', 'in', part).execute();
    for (const row of rows) out.set(row.user_id, row);
  }
  return out;
}

/** The push subscriptions of many people, each person's oldest first (as `listPushTargets`). */
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

/** Escalation policies by id, for a batch of steps (the caller checks each row's tenant). */
export async function findPoliciesByIds(db: DB, ids: string[]): Promise<Map<string, EscalationPoliciesTable>> {
  const out = new Map<string, EscalationPoliciesTable>();
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db.selectFrom('escalation_policies').selectAll().where('id', 'in', part).execute();
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

/** An acknowledge link's token (looked up by its hash before we know the tenant: the token is the credential). */
export async function unsafeFindAckToken(db: DB, tokenHash: string) {
  return db
    .selectFrom('ack_tokens as t')
    .innerJoin('alerts as a', 'a.id', 't.alert_id')
    .innerJoin('tenants as n', 'n.id', 't.tenant_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.token_hash',
      't.tenant_id',
      't.alert_id',
      't.user_id',
      't.expires_at',
      't.used_at',
      'a.title',
      'a.priority',
      'a.status',
      'a.source',
      'n.name as tenant_name',
      'u.display_name',
      'u.email',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a token used, once: false when it was already used (a replayed link). */
export async function useAckToken(db: DB, tokenHash: string, at: string): Promise<boolean> {
  const r = await db.updateTable('ack_tokens').set({ used_at: at }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findServerKey(db: DB, name: string) {
  return (await db.selectFrom('server_keys').select('value').where('name', '=', name).executeTakeFirst())?.value ?? null;
}

/** Stores a key unless another instance stored one first; returns the key in force. */
export async function saveServerKey(db: DB, name: string, value: string, at: string): Promise<string> {
  await db.insertInto('server_keys').values({ name, value, created_at: at }).onConflict((oc) => oc.column('name').doNothing()).execute();
  return (await findServerKey(db, name)) ?? value;
}

