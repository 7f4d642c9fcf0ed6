import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DB, Dialect } from '../../db/database.ts';
import type { AlertEventsTable, AlertsTable, NotificationAttemptsTable } from '../../db/schema.ts';

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

export async function findPagedAlert(db: DB, tenantId: string, alertId: string): Promise<PagedAlert | undefined> {
  const row = await db.selectFrom('alerts').select(ALERT_COLUMNS).where('tenant_id', '=', tenantId).where('id', '=', alertId).executeTakeFirst();
  return row as PagedAlert | undefined;
}

export async function setEscalation(
  db: DB,
  tenantId: string,
  alertId: string,
  values: { escalation_state?: 'pending' | 'running' | 'none' | 'stopped'; escalation_level?: number; escalation_policy_id?: string | null; overdue_at?: string },
) {
  await db.updateTable('alerts').set(values).where('tenant_id', '=', tenantId).where('id', '=', alertId).execute();
}

/** Appends a system entry to an alert's timeline. */
export async function insertSystemEvent(db: DB, e: { tenantId: string; alertId: string; at: string; kind: AlertEventsTable['kind']; actorName?: string; detail: Record<string, unknown> }) {
  await db
    .insertInto('alert_events')
    .values({
      id: randomUUID(),
      tenant_id: e.tenantId,
      alert_id: e.alertId,
      at: e.at,
      kind: e.kind,
      actor_type: 'system',
      actor_id: null,
      actor_name: e.actorName ?? 'Alertdesk',
      detail: JSON.stringify(e.detail),
    })
    .execute();
}

/** Subscribers of a tenant (profile alert subscriptions) whose subscription matches the alert. */
export async function findSubscribers(db: DB, tenantId: string, alert: { clientId: string | null; priority: string; tags: string[] }) {
  const tags = alert.tags.map((t) => t.toLowerCase()).slice(0, 50);
  const rows = await db
    .selectFrom('alert_subscriptions as s')
    .innerJoin('tenant_members as m', (j) => j.onRef('m.user_id', '=', 's.user_id').onRef('m.tenant_id', '=', 's.tenant_id'))
    .select('s.user_id')
    .distinct()
    .where('s.tenant_id', '=', tenantId)
    .where('m.status', '=', 'active')
    .where((eb) =>
      eb.or([
        ...(alert.clientId ? [eb.and([eb('s.type', '=', 'client'), eb('s.client_id', '=', alert.clientId)])] : []),
        eb.and([eb('s.type', '=', 'priority'), eb('s.value', '=', alert.priority)]),
        ...(tags.length ? [eb.and([eb('s.type', '=', 'tag'), eb('s.value', 'in', tags)])] : []),
      ]),
    )
    .execute();
  return rows.map((r) => r.user_id);
}

export type AttemptKey = Pick<NotificationAttemptsTable, 'tenant_id' | 'alert_id' | 'step' | 'user_id' | 'channel'>;

/**
 * Opens the attempt of (alert, step, person, channel), once: returns the row, and whether an earlier run already
 * finished it (then nothing is sent again). A row still 'pending' means a worker died mid-send: it is sent again.
 */
export async function openAttempt(db: DB, key: AttemptKey & { level: number | null }, at: string) {
  await db
    .insertInto('notification_attempts')
    .values({ id: randomUUID(), ...key, outcome: 'pending', reason: null, provider_id: null, tries: 0, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['alert_id', 'step', 'user_id', 'channel']).doNothing())
    .execute();
  const row = await db
    .selectFrom('notification_attempts')
    .selectAll()
    .where('alert_id', '=', key.alert_id)
    .where('step', '=', key.step)
    .where('user_id', '=', key.user_id)
    .where('channel', '=', key.channel)
    .executeTakeFirstOrThrow();
  return { row, finished: row.outcome !== 'pending' };
}

export async function finishAttempt(
  db: DB,
  id: string,
  values: { outcome: NotificationAttemptsTable['outcome']; reason?: string | null; provider_id?: string | null; tries: number },
  at: string,
) {
  await db
    .updateTable('notification_attempts')
    .set({ outcome: values.outcome, reason: values.reason ?? null, provider_id: values.provider_id ?? null, tries: values.tries, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function listAttempts(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('notification_attempts').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('created_at').execute();
}

export async function insertAckToken(db: DB, row: { token_hash: string; tenant_id: string; alert_id: string; user_id: string; created_at: string; expires_at: string }) {
  await db.insertInto('ack_tokens').values({ ...row, used_at: null }).execute();
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

