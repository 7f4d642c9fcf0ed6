import type { DB } from '../../db/database.ts';
import type { HeartbeatsTable } from '../../db/schema.ts';

export type HeartbeatRow = HeartbeatsTable & { client_name: string | null };

const withClient = (db: DB) =>
  db
    .selectFrom('heartbeats as h')
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 'h.client_id').onRef('c.tenant_id', '=', 'h.tenant_id'))
    .selectAll('h')
    .select('c.name as client_name');

export async function listHeartbeats(db: DB, tenantId: string, filter: { clientId?: string }): Promise<HeartbeatRow[]> {
  return withClient(db)
    .where('h.tenant_id', '=', tenantId)
    .$if(filter.clientId !== undefined, (qb) => qb.where('h.client_id', '=', filter.clientId!))
    .orderBy('h.name')
    .orderBy('h.id')
    .execute();
}

export async function findHeartbeat(db: DB, tenantId: string, id: string): Promise<HeartbeatRow | undefined> {
  return withClient(db).where('h.tenant_id', '=', tenantId).where('h.id', '=', id).executeTakeFirst();
}

export async function countHeartbeats(db: DB, tenantId: string): Promise<number> {
  const row = await db.selectFrom('heartbeats').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertHeartbeat(db: DB, row: HeartbeatsTable) {
  await db.insertInto('heartbeats').values(row).execute();
}

/** What a write may change: everything but identity, creation and the version (which every write bumps). */
export type HeartbeatChange = Partial<Omit<HeartbeatsTable, 'id' | 'tenant_id' | 'created_at' | 'created_by' | 'created_by_name' | 'version'>>;

/**
 * Writes `set` only if the monitor is still at `version` (and, when given, still in `state` with `next_check_at`):
 * two writers that read the same version cannot both succeed. Returns whether this one did.
 */
export async function updateHeartbeatIf(db: DB, tenantId: string, id: string, expect: { version: number; state?: HeartbeatsTable['state']; nextCheckAt?: string | null }, set: HeartbeatChange) {
  const r = await db
    .updateTable('heartbeats')
    .set((eb) => ({ ...set, version: eb('version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('version', '=', expect.version)
    .$if(expect.state !== undefined, (qb) => qb.where('state', '=', expect.state!))
    .$if(expect.nextCheckAt !== undefined, (qb) => (expect.nextCheckAt === null ? qb.where('next_check_at', 'is', null) : qb.where('next_check_at', '=', expect.nextCheckAt!)))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Records that the alert change numbered `alertSeq` went through ingestion, unless a later change came meanwhile. */
export async function markAlertSynced(db: DB, tenantId: string, id: string, alertSeq: number, alertId: string | null) {
  const r = await db
    .updateTable('heartbeats')
    .set({ alert_sync_due_at: null, alert_id: alertId })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('alert_seq', '=', alertSeq)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Takes an alert change that is due for the worker (puts its next try off to `until`), unless another worker took it
 * or a later change came since it was read: the one that takes it makes the change.
 */
export async function claimAlertSync(db: DB, tenantId: string, id: string, read: { alertSeq: number; dueAt: string }, until: string) {
  const r = await db
    .updateTable('heartbeats')
    .set({ alert_sync_due_at: until })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('alert_seq', '=', read.alertSeq)
    .where('alert_sync_due_at', '=', read.dueAt)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteHeartbeat(db: DB, tenantId: string, id: string) {
  const r = await db.deleteFrom('heartbeats').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The ping URL secret's hash of the monitor whose mail address has this local part, across every tenant; or null. */
export async function unsafeFindHeartbeatTokenHashByEmailToken(db: DB, emailToken: string): Promise<string | null> {
  return (await db.selectFrom('heartbeats').select('token_hash').where('email_token', '=', emailToken).executeTakeFirst())?.token_hash ?? null;
}

/** The monitor a ping URL's secret belongs to, across every tenant: the secret is the pinger's only credential. */
export async function unsafeFindHeartbeatByTokenHash(db: DB, tokenHash: string): Promise<HeartbeatsTable | undefined> {
  return db.selectFrom('heartbeats').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Monitors of every tenant whose next deadline has come (the worker's sweep), oldest first. */
export async function unsafeDueHeartbeats(db: DB, now: string, limit: number): Promise<HeartbeatsTable[]> {
  return db.selectFrom('heartbeats').selectAll().where('next_check_at', 'is not', null).where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).execute();
}

/** Monitors of every tenant whose alert change did not go through in time (a crash or an outage in between). */
export async function unsafeUnsyncedHeartbeats(db: DB, now: string, limit: number): Promise<HeartbeatsTable[]> {
  return db
    .selectFrom('heartbeats')
    .selectAll()
    .where('alert_sync_due_at', 'is not', null)
    .where('alert_sync_due_at', '<=', now)
    .orderBy('alert_sync_due_at')
    .limit(limit)
    .execute();
}
