import { sql } from 'kysely';
import type { DB, Dialect } from '../../db/database.ts';
import type { AckTokensTable, AlertEventsTable, AlertsTable } from '../../db/schema.ts';
import { timeOrderedUuid as timeOrderedId } from '../../lib/ids.ts';
import { bulkInsert, chunks, isPostgres, readByKeys, tenantBesideIds, type BulkInsert } from '../../db/bulk-insert.ts';

/** What the engine reads of an alert. */
export type PagedAlert = Pick<
  AlertsTable,
  'id' | 'tenant_id' | 'client_id' | 'integration_id' | 'title' | 'description' | 'priority' | 'status' | 'source' | 'created_at' | 'tags'
> & { escalation_state: string; escalation_level: number; escalation_policy_id: string | null; overdue_at: string | null; next_step_at: string | null; overdue_check_at: string | null; maintenance_window_id: string | null; snoozed_until: string | null };

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
  'next_step_at',
  'overdue_check_at',
  'maintenance_window_id',
  'snoozed_until',
] as const;

/**
 * Alerts whose escalation has not started yet, oldest first, locked for this transaction: on PostgreSQL another
 * instance's sweep skips them (SKIP LOCKED); SQLite writes one transaction at a time.
 */
export async function unsafeLockPendingAlerts(trx: DB, dialect: Dialect, limit: number): Promise<PagedAlert[]> {
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

/**
 * Alerts whose overdue check is due at `at`, soonest first, locked for this transaction (as `lockPendingAlerts`):
 * found through the partial index of alerts with a check to come.
 */
export async function unsafeLockDueOverdueChecks(trx: DB, dialect: Dialect, at: string, limit: number): Promise<PagedAlert[]> {
  return lockDue(trx, dialect, 'overdue_check_at', at, limit);
}

/** Alerts whose next escalation level is due at `at`, soonest first, locked for this transaction (as above). */
export async function unsafeLockDueSteps(trx: DB, dialect: Dialect, at: string, limit: number): Promise<PagedAlert[]> {
  return lockDue(trx, dialect, 'next_step_at', at, limit);
}

/** Whether any alert's next level or overdue check is due at `at` (one indexed look-up, outside a transaction). */
export async function unsafeAnyDue(db: DB, column: 'overdue_check_at' | 'next_step_at', at: string): Promise<boolean> {
  return (await db.selectFrom('alerts').select('id').where(column, 'is not', null).where(column, '<=', at).limit(1).executeTakeFirst()) !== undefined;
}

async function lockDue(trx: DB, dialect: Dialect, column: 'overdue_check_at' | 'next_step_at', at: string, limit: number): Promise<PagedAlert[]> {
  const rows = await trx
    .selectFrom('alerts')
    .select(ALERT_COLUMNS)
    .where(column, 'is not', null)
    .where(column, '<=', at)
    .orderBy(column)
    .limit(limit)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked())
    .execute();
  return rows as PagedAlert[];
}

/** Alerts by id, for a batch of jobs (one statement per 500); the caller checks each row's tenant against its job's. */
export async function unsafeFindPagedAlerts(db: DB, alertIds: string[]): Promise<Map<string, PagedAlert>> {
  return readByKeys(alertIds, async (part) => (await db.selectFrom('alerts').select(ALERT_COLUMNS).where('id', 'in', part).execute()) as PagedAlert[], (row) => row.id);
}

export type EscalationValues = {
  escalation_state?: 'pending' | 'running' | 'none' | 'stopped';
  escalation_level?: number;
  escalation_policy_id?: string | null;
  overdue_at?: string;
  next_step_at?: string | null;
  overdue_check_at?: string | null;
};

/** Where an escalation stands after its start: each alert its own values. */
export interface EscalationStart {
  id: string;
  tenantId: string;
  state: 'running' | 'none' | 'stopped';
  policyId: string | null;
  level: number;
  nextStepAt: string | null;
  overdueCheckAt: string | null;
}

/** Many alerts' escalation values, each its own, in one statement per 500 (an update from a list of values). */
export async function setEscalationEach(db: DB, rows: EscalationStart[]) {
  for (const part of chunks(rows)) {
    if (isPostgres(db)) {
      // One array parameter per column (as bulkInsert), not rows × columns.
      const col = <T>(f: (r: EscalationStart) => T) => part.map(f);
      await sql`update alerts set escalation_state = v.state, escalation_policy_id = v.policy_id, escalation_level = v.level, next_step_at = v.step_at, overdue_check_at = v.check_at
        from unnest(${col((r) => r.id)}::text[], ${col((r) => r.tenantId)}::text[], ${col((r) => r.state)}::text[], ${col((r) => r.policyId)}::text[],
          ${col((r) => r.level)}::int[], ${col((r) => r.nextStepAt)}::text[], ${col((r) => r.overdueCheckAt)}::text[]) as v(id, tenant_id, state, policy_id, level, step_at, check_at)
        where alerts.id = v.id and alerts.tenant_id = v.tenant_id`.execute(db);
      continue;
    }
    const values = sql.join(part.map((r) => sql`(${r.id}, ${r.tenantId}, ${r.state}, ${r.policyId}, ${r.level}, ${r.nextStepAt}, ${r.overdueCheckAt})`));
    await sql`with v(id, tenant_id, state, policy_id, level, step_at, check_at) as (values ${values})
      update alerts set escalation_state = v.state, escalation_policy_id = v.policy_id, escalation_level = cast(v.level as integer), next_step_at = v.step_at, overdue_check_at = v.check_at
      from v where alerts.id = v.id and alerts.tenant_id = v.tenant_id`.execute(db);
  }
}

/** The same escalation values on many alerts of a tenant (one statement per 500). */
export async function setEscalationMany(db: DB, tenantId: string, alertIds: string[], values: EscalationValues) {
  for (const part of chunks(alertIds)) await db.updateTable('alerts').set(values).where(tenantBesideIds(db, 'tenant_id'), '=', tenantId).where('id', 'in', part).execute();
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
  if (events.length === 0) return;
  await bulkInsert(db, EVENT_INSERT, events.map(eventRow));
}

const eventRow = (e: SystemEvent): AlertEventsTable => ({
  id: timeOrderedId(),
  tenant_id: e.tenantId,
  alert_id: e.alertId,
  at: e.at,
  kind: e.kind,
  actor_type: 'system',
  actor_id: null,
  actor_name: e.actorName ?? 'Alertdesk',
  detail: JSON.stringify(e.detail),
});

const EVENT_INSERT: BulkInsert<AlertEventsTable> = {
  table: 'alert_events',
  columns: (['id', 'tenant_id', 'alert_id', 'at', 'kind', 'actor_type', 'actor_id', 'actor_name', 'detail'] as const).map((c) => [c, 'text'] as const),
};

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

/**
 * What a signed acknowledge link names (its alert, tenant and person; looked up before we know the tenant: the signed
 * token is the credential), with when it was used (its hash stored at use).
 */
export async function unsafeFindSignedAckLink(db: DB, link: { alertId: string; userId: string; expiresAt: Date; tokenHash: string }) {
  const row = await db
    .selectFrom('alerts as a')
    .innerJoin('tenants as n', 'n.id', 'a.tenant_id')
    .innerJoin('users as u', (j) => j.on('u.id', '=', link.userId))
    .leftJoin('ack_tokens as t', (j) => j.on('t.token_hash', '=', link.tokenHash))
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 'a.client_id').onRef('c.tenant_id', '=', 'a.tenant_id'))
    .select([
      'a.tenant_id',
      'a.title',
      'a.description',
      'a.priority',
      'a.status',
      'a.source',
      'a.created_at',
      'n.name as tenant_name',
      'c.name as client_name',
      'u.display_name',
      'u.email',
      'u.time_zone',
      't.used_at',
    ])
    .where('a.id', '=', link.alertId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, token_hash: link.tokenHash, alert_id: link.alertId, user_id: link.userId, expires_at: link.expiresAt.toISOString() };
}

/** Marks a signed link used, once (its hash stored, unique): false when it was already used (a replayed link). */
export async function useSignedAckToken(db: DB, row: Pick<AckTokensTable, 'token_hash' | 'tenant_id' | 'alert_id' | 'user_id' | 'expires_at'>, at: string): Promise<boolean> {
  const r = await db
    .insertInto('ack_tokens')
    .values({ token_hash: row.token_hash, tenant_id: row.tenant_id, alert_id: row.alert_id, user_id: row.user_id, expires_at: row.expires_at, created_at: at, used_at: at })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** What pages say beyond the alert: client and tenant names, and how many tenants each person belongs to. */
export interface PageContextRows {
  clients: Map<string, string>;
  tenants: Map<string, string>;
  /** How many tenants each person is an active member of. */
  tenantsPerPerson: Map<string, number>;
}

/** Reads a batch's page context (three statements per 500 of each, whatever the batch's size). */
export async function unsafeFindPageContext(db: DB, want: { clientIds: string[]; tenantIds: string[]; userIds: string[] }): Promise<PageContextRows> {
  const clients = await readByKeys(
    [...new Set(want.clientIds)],
    (part) => db.selectFrom('clients').select(['id', 'name']).where('id', 'in', part).execute(),
    (r) => r.id,
  );
  const tenants = await readByKeys(
    [...new Set(want.tenantIds)],
    (part) => db.selectFrom('tenants').select(['id', 'name']).where('id', 'in', part).execute(),
    (r) => r.id,
  );
  const people = await readByKeys(
    [...new Set(want.userIds)],
    (part) =>
      db
        .selectFrom('users as u')
        .select((eb) => [
          'u.id',
          eb
            .selectFrom('tenant_members as m')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('m.user_id', '=', 'u.id')
            .where('m.status', '=', 'active')
            .as('tenants'),
        ])
        .where('u.id', 'in', part)
        .execute(),
    (r) => r.id,
  );
  return {
    clients: new Map([...clients].map(([id, r]) => [id, r.name])),
    tenants: new Map([...tenants].map(([id, r]) => [id, r.name])),
    tenantsPerPerson: new Map([...people].map(([id, r]) => [id, Number(r.tenants ?? 1)])),
  };
}

/** The SMS page whose short acknowledge link this is: its alert, person and when it was made (for the link's expiry). */
export async function unsafeFindShortAckLink(db: DB, code: string) {
  return db
    .selectFrom('notification_attempts')
    .select(['alert_id', 'user_id', 'created_at'])
    .where('short_code', '=', code)
    .executeTakeFirst();
}

/** Whether anyone in the tenant subscribes to alerts (client, priority or tag): their new alerts take the start sweep. */
export async function tenantHasSubscriptions(db: DB, tenantId: string): Promise<boolean> {
  return (await db.selectFrom('alert_subscriptions').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst()) !== undefined;
}
