import type { DB } from '../../db/database.ts';

/** Per-schedule "take the pager" settings (issue 27); no row: anyone may take the pager. */

/** Which of the tenant's schedules let only their participants take the pager. */
export async function participantsOnlySchedules(db: DB, tenantId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('oncall_pager_settings').select('schedule_id').where('tenant_id', '=', tenantId).where('participants_only', '=', 1).execute();
  return new Set(rows.map((r) => r.schedule_id));
}

export async function saveSetting(db: DB, row: { schedule_id: string; tenant_id: string; participants_only: number; updated_by: string; updated_at: string }) {
  await db
    .insertInto('oncall_pager_settings')
    .values(row)
    .onConflict((oc) => oc.column('schedule_id').doUpdateSet({ participants_only: row.participants_only, updated_by: row.updated_by, updated_at: row.updated_at }))
    .execute();
}
