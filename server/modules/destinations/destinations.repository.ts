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
