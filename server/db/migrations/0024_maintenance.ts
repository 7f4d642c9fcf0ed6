import { sql, type Kysely } from 'kysely';

// Maintenance windows and snooze (issue 31).
// - maintenance_windows: a tenant's planned quiet times. kind 'one_off' (starts_at/ends_at, ISO UTC) or 'weekly'
//   (days: JSON array of weekdays 0 = Sunday … 6; from_time/to_time 'HH:mm' wall clock in time_zone, an IANA zone;
//   to ≤ from runs past midnight; until_at: no occurrence starts at or after it). Scope: client_ids and
//   integration_ids as JSON arrays, both empty meaning the whole tenant. ended_at: "end now" (a weekly window's
//   current occurrence only).
// - alerts.maintenance_window_id: the window an alert opened inside (its "Maintenance" badge; counted by the reports).
//   The hold itself is the escalation columns: level 1 due (next_step_at) at the window's end, no overdue check yet.
// - alerts.snoozed_until: until when a person snoozed it; its escalation restarts from level 1 then (next_step_at).
// The partial index holds the alerts opened in a window only: "end now" finds those it releases through it, and the
// writes of every other alert never touch it.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('maintenance_windows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('days', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('from_time', 'text')
    .addColumn('to_time', 'text')
    .addColumn('time_zone', 'text')
    .addColumn('until_at', 'text')
    .addColumn('client_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('integration_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('ended_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('maintenance_windows_tenant_idx').on('maintenance_windows').column('tenant_id').execute();
  await db.schema.alterTable('alerts').addColumn('maintenance_window_id', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('snoozed_until', 'text').execute();
  await db.schema
    .createIndex('alerts_maintenance_idx')
    .on('alerts')
    .columns(['tenant_id', 'maintenance_window_id'])
    .where(sql.ref('maintenance_window_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_maintenance_idx').ifExists().execute();
  await db.schema.alterTable('alerts').dropColumn('snoozed_until').execute();
  await db.schema.alterTable('alerts').dropColumn('maintenance_window_id').execute();
  await db.schema.dropTable('maintenance_windows').ifExists().execute();
}
