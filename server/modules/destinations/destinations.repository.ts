import type { Updateable } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { DestinationDeliveriesTable, DestinationsTable } from '../../db/schema.ts';

export async function listDestinations(db: DB, tenantId: string) {
  return db.selectFrom('destinations').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

/** The tenant's enabled destinations (the event fan-out filters them by event and filter). */
export async function listEnabledDestinations(db: DB, tenantId: string) {
  return db.selectFrom('destinations').selectAll().where('tenant_id', '=', tenantId).where('enabled', '=', 1).execute();
}

export async function getDestination(db: DB, tenantId: string, id: string) {
  return db.selectFrom('destinations').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function countDestinations(db: DB, tenantId: string): Promise<number> {
  const row = await db.selectFrom('destinations').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertDestination(db: DB, row: DestinationsTable) {
  await db.insertInto('destinations').values(row).execute();
}

export async function updateDestination(db: DB, tenantId: string, id: string, patch: Updateable<DestinationsTable>): Promise<boolean> {
  const res = await db.updateTable('destinations').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteDestination(db: DB, tenantId: string, id: string): Promise<boolean> {
  await db.deleteFrom('destination_deliveries').where('tenant_id', '=', tenantId).where('destination_id', '=', id).execute();
  const res = await db.deleteFrom('destinations').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** A delivery, unless this message was already written for this destination (by this or another instance): false then. */
export async function insertDelivery(db: DB, row: DestinationDeliveriesTable): Promise<boolean> {
  const res = await db
    .insertInto('destination_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['destination_id', 'message_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return res !== undefined;
}

export async function getDelivery(db: DB, tenantId: string, id: string) {
  return db.selectFrom('destination_deliveries').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function listDeliveries(db: DB, tenantId: string, destinationId: string, limit: number) {
  return db
    .selectFrom('destination_deliveries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('destination_id', '=', destinationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function updateDelivery(db: DB, tenantId: string, id: string, patch: Updateable<DestinationDeliveriesTable>) {
  await db.updateTable('destination_deliveries').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** When a delivery (other than test events) to the destination last succeeded; null when none ever did. */
export async function lastSucceededAt(db: DB, tenantId: string, destinationId: string, exceptEvent: string): Promise<string | null> {
  const row = await db
    .selectFrom('destination_deliveries')
    .select((eb) => eb.fn.max('updated_at').as('at'))
    .where('tenant_id', '=', tenantId)
    .where('destination_id', '=', destinationId)
    .where('status', '=', 'succeeded')
    .where('event_type', '!=', exceptEvent)
    .executeTakeFirst();
  return (row?.at as string | null | undefined) ?? null;
}

/** When the oldest delivery still failing (tried at least once, not succeeded) was made, from `after` on when given. */
export async function oldestFailingSince(db: DB, tenantId: string, destinationId: string, after: string | null, exceptEvent: string): Promise<string | null> {
  const row = await db
    .selectFrom('destination_deliveries')
    .select((eb) => eb.fn.min('created_at').as('at'))
    .where('tenant_id', '=', tenantId)
    .where('destination_id', '=', destinationId)
    .where('status', 'in', ['pending', 'failed'])
    .where('attempts', '>', 0)
    .where('event_type', '!=', exceptEvent)
    .$if(after !== null, (qb) => qb.where('created_at', '>=', after!))
    .executeTakeFirst();
  return (row?.at as string | null | undefined) ?? null;
}

/** Disables an enabled destination with a reason; false when it was disabled already (another instance did it). */
export async function disableDestination(db: DB, tenantId: string, id: string, reason: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('destinations')
    .set({ enabled: 0, disabled_reason: reason, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The tenant's active owners, to tell about a destination it lost. */
export function ownerEmails(db: DB, tenantId: string) {
  return db
    .selectFrom('tenant_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.display_name'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.role', '=', 'owner')
    .where('m.status', '=', 'active')
    .execute();
}

/** Whether an id is one of the tenant's heartbeat monitors (whose alerts carry it as their integration id). */
export async function isHeartbeatMonitor(db: DB, tenantId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('heartbeats').select('id').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()) !== undefined;
}
