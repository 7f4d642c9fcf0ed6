import type { Updateable } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { AlertEventsTable, PsaActionsTable, PsaCompanyMapTable, PsaConnectionsTable, PsaTicketsTable } from '../../db/schema.ts';

// --- connections ---

export async function listConnections(db: DB, tenantId: string) {
  return db.selectFrom('psa_connections').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

export async function listEnabledConnections(db: DB, tenantId: string) {
  return db.selectFrom('psa_connections').selectAll().where('tenant_id', '=', tenantId).where('enabled', '=', 1).execute();
}

export async function getConnection(db: DB, tenantId: string, id: string) {
  return db.selectFrom('psa_connections').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** A connection by id alone: the PSA's inbound notice names only the connection (its signature was checked first). */
export async function unsafeGetConnectionById(db: DB, id: string) {
  return db.selectFrom('psa_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countConnections(db: DB, tenantId: string): Promise<number> {
  const row = await db.selectFrom('psa_connections').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertConnection(db: DB, row: PsaConnectionsTable) {
  await db.insertInto('psa_connections').values(row).execute();
}

export async function updateConnection(db: DB, tenantId: string, id: string, patch: Updateable<PsaConnectionsTable>) {
  await db.updateTable('psa_connections').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteConnection(db: DB, tenantId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    for (const table of ['psa_actions', 'psa_tickets', 'psa_company_map'] as const) await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('connection_id', '=', id).execute();
    const res = await trx.deleteFrom('psa_connections').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  });
}

/** Calls waiting or being retried, per connection of the tenant. */
export async function queueLengths(db: DB, tenantId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('psa_actions')
    .select(['connection_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', ['pending', 'sending'])
    .groupBy('connection_id')
    .execute();
  return new Map(rows.map((r) => [r.connection_id, Number(r.n)]));
}

// --- company map ---

export async function listCompanyMap(db: DB, tenantId: string, connectionId: string) {
  return db.selectFrom('psa_company_map').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute();
}

export async function findCompanyOf(db: DB, tenantId: string, connectionId: string, clientId: string) {
  return db.selectFrom('psa_company_map').select('company_id').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('client_id', '=', clientId).executeTakeFirst();
}

/** The connection's whole map, replaced in one transaction. */
export async function replaceCompanyMap(db: DB, tenantId: string, connectionId: string, rows: PsaCompanyMapTable[]) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('psa_company_map').where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).execute();
    if (rows.length) await trx.insertInto('psa_company_map').values(rows).execute();
  });
}

// --- tickets ---

export async function findTicket(db: DB, tenantId: string, connectionId: string, alertId: string) {
  return db.selectFrom('psa_tickets').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('alert_id', '=', alertId).executeTakeFirst();
}

/** The ticket rows of an alert (one per connection), for its answers. */
export async function ticketsOfAlerts(db: DB, tenantId: string, alertIds: string[]) {
  if (alertIds.length === 0) return [];
  return db.selectFrom('psa_tickets').selectAll().where('tenant_id', '=', tenantId).where('alert_id', 'in', alertIds).execute();
}

/** A ticket row unless the alert has one on this connection already (another instance was first): false then. */
export async function insertTicket(db: DB, row: PsaTicketsTable): Promise<boolean> {
  const res = await db.insertInto('psa_tickets').values(row).onConflict((oc) => oc.columns(['connection_id', 'alert_id']).doNothing()).executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateTicket(db: DB, tenantId: string, id: string, patch: Updateable<PsaTicketsTable>) {
  await db.updateTable('psa_tickets').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** Moves the noted occurrence count up to `n`; false when it was there already (this recurrence is noted). */
export async function advanceNotedOccurrences(db: DB, tenantId: string, id: string, n: number): Promise<boolean> {
  const res = await db.updateTable('psa_tickets').set({ noted_occurrences: n }).where('tenant_id', '=', tenantId).where('id', '=', id).where('noted_occurrences', '<', n).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The latest ticket of another alert with this dedup key from this integration (the same problem, come back). */
export async function latestTicketOfProblem(db: DB, tenantId: string, connectionId: string, integrationId: string | null, dedupKey: string, exceptAlertId: string) {
  let q = db
    .selectFrom('psa_tickets')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('connection_id', '=', connectionId)
    .where('dedup_key', '=', dedupKey)
    .where('alert_id', '!=', exceptAlertId)
    .where('ticket_id', 'is not', null);
  q = integrationId === null ? q.where('integration_id', 'is', null) : q.where('integration_id', '=', integrationId);
  return q.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

/** Every enabled Autotask connection (of every tenant) with open tickets: the polls to schedule. */
export async function unsafePolledConnectionsWithOpenTickets(db: DB) {
  return db
    .selectFrom('psa_connections as c')
    .select(['c.id', 'c.tenant_id'])
    .where('c.type', '=', 'autotask')
    .where('c.enabled', '=', 1)
    .where((eb) => eb.exists(eb.selectFrom('psa_tickets as t').select('t.id').whereRef('t.connection_id', '=', 'c.id').whereRef('t.tenant_id', '=', 'c.tenant_id').where('t.status', '=', 'open')))
    .execute();
}

/** The PSA ids of a connection's open tickets. */
export async function openTicketIds(db: DB, tenantId: string, connectionId: string): Promise<string[]> {
  const rows = await db.selectFrom('psa_tickets').select('ticket_id').distinct().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('status', '=', 'open').where('ticket_id', 'is not', null).limit(5000).execute();
  return rows.map((r) => r.ticket_id!);
}

export async function ticketsByPsaId(db: DB, tenantId: string, connectionId: string, ticketId: string) {
  return db.selectFrom('psa_tickets').selectAll().where('tenant_id', '=', tenantId).where('connection_id', '=', connectionId).where('ticket_id', '=', ticketId).execute();
}

// --- actions (the idempotency records) ---

/** An action unless one with its key exists (this or another instance planned it first): false then. */
export async function insertAction(db: DB, row: PsaActionsTable): Promise<boolean> {
  const res = await db.insertInto('psa_actions').values(row).onConflict((oc) => oc.columns(['connection_id', 'unique_key']).doNothing()).executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function getAction(db: DB, tenantId: string, id: string) {
  return db.selectFrom('psa_actions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function updateAction(db: DB, tenantId: string, id: string, patch: Updateable<PsaActionsTable>) {
  await db.updateTable('psa_actions').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** Whether an action of the same alert planned before this one is still unfinished (calls go out in order). */
export async function hasEarlierUnfinished(db: DB, tenantId: string, action: Pick<PsaActionsTable, 'id' | 'connection_id' | 'alert_id'>): Promise<boolean> {
  const row = await db
    .selectFrom('psa_actions')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('connection_id', '=', action.connection_id)
    .where('alert_id', '=', action.alert_id)
    .where('status', 'in', ['pending', 'sending'])
    .where('id', '<', action.id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// --- the alert's side: its timeline, and its resolution or acknowledgement by the PSA ---

export async function insertTimelineEntry(db: DB, row: AlertEventsTable) {
  await db.insertInto('alert_events').values(row).execute();
}

export async function findAlertBasics(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('alerts').select(['id', 'status', 'priority', 'dedup_key', 'updated_at']).where('tenant_id', '=', tenantId).where('id', '=', alertId).executeTakeFirst();
}

/**
 * The alert resolved (or acknowledged) because its ticket was closed in the PSA, if its status still allows it: the
 * same conditional update a person's action makes (its escalation ends), by nobody in particular.
 */
export async function settleAlertFromPsa(db: DB, tenantId: string, alertId: string, to: 'resolved' | 'acknowledged', at: string) {
  const from = to === 'resolved' ? (['new', 'acknowledged', 'in_progress'] as const) : (['new'] as const);
  const patch = to === 'resolved' ? { status: 'resolved' as const, resolved_at: at } : { status: 'acknowledged' as const, acknowledged_at: at };
  return db
    .updateTable('alerts')
    .set({ ...patch, updated_at: at, next_step_at: null, overdue_check_at: null })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', alertId)
    .where('status', 'in', [...from])
    .returning(['id', 'status', 'priority', 'dedup_key', 'updated_at'])
    .executeTakeFirst();
}

/** Every PSA call planned for a tenant, in order (the tests read what was planned). */
export function listActions(db: DB, tenantId: string) {
  return db.selectFrom('psa_actions').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();
}
