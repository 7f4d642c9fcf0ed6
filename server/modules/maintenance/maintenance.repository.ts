import { sql, type SqlBool } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { MaintenanceWindowsTable } from '../../db/schema.ts';

export type WindowRow = MaintenanceWindowsTable;

export async function listWindows(db: DB, tenantId: string): Promise<WindowRow[]> {
  return db.selectFrom('maintenance_windows').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id').execute();
}

/**
 * The windows that may still be on at `at` or later (ingestion's cache): one-off windows not over, weekly ones before
 * their last day. Ended one-off windows have ends_at ≥ ended_at only in rows "ended now": those are filtered by time.
 */
export async function listCurrentWindows(db: DB, tenantId: string, at: string): Promise<WindowRow[]> {
  return db
    .selectFrom('maintenance_windows')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb.and([eb('kind', '=', 'one_off'), eb('ends_at', '>', at)]), eb.and([eb('kind', '=', 'weekly'), eb.or([eb('until_at', 'is', null), eb('until_at', '>', at)])])]))
    .execute();
}

export async function findWindow(db: DB, tenantId: string, id: string): Promise<WindowRow | undefined> {
  return db.selectFrom('maintenance_windows').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function countWindows(db: DB, tenantId: string): Promise<number> {
  const row = await db.selectFrom('maintenance_windows').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertWindow(db: DB, row: WindowRow) {
  await db.insertInto('maintenance_windows').values(row).execute();
}

export type WindowChange = Partial<Omit<WindowRow, 'id' | 'tenant_id' | 'created_at' | 'created_by' | 'created_by_name'>>;

export async function updateWindow(db: DB, tenantId: string, id: string, set: WindowChange) {
  const r = await db.updateTable('maintenance_windows').set(set).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteWindow(db: DB, tenantId: string, id: string) {
  const r = await db.deleteFrom('maintenance_windows').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The integrations of the tenant among `ids`. */
export async function existingIntegrationIds(db: DB, tenantId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db.selectFrom('integrations').select('id').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Moves the level 1 of the alerts a window still holds (opened in it, unacknowledged, escalation not begun, not
 * snoozed by someone) to `to`: the window's new end, or now when it ended; the step sweep fires them from there.
 */
export async function moveHeldAlerts(db: DB, tenantId: string, windowId: string, at: string, to: string) {
  const r = await db
    .updateTable('alerts')
    .set({ next_step_at: to })
    .where('tenant_id', '=', tenantId)
    .where('maintenance_window_id', '=', windowId)
    .where(sql<SqlBool>`status = 'new'`)
    .where('escalation_state', '=', 'running')
    .where('escalation_level', '=', 0)
    .where('next_step_at', '>', at)
    .where((eb) => eb.or([eb('snoozed_until', 'is', null), eb('snoozed_until', '<=', at)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
