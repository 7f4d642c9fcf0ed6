import { sql, type Kysely } from 'kysely';

// Heartbeat monitors (issue 28): a scheduled job pings a secret URL (only its SHA-256 is kept); a ping that does not
// come in time opens an alert. The worker finds the monitors to look at through next_check_at (partial index: only
// those with a deadline to come), and the alerts still to be opened or resolved through alert_sync_due_at.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('heartbeats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('interval_minutes', 'integer', (c) => c.notNull())
    .addColumn('grace_minutes', 'integer', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('new'))
    .addColumn('period_start_at', 'text')
    .addColumn('run_started_at', 'text')
    .addColumn('last_ping_at', 'text')
    .addColumn('last_fail_at', 'text')
    .addColumn('next_check_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_wanted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_sync_due_at', 'text')
    .addColumn('alert_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('heartbeats_tenant_client_idx').on('heartbeats').columns(['tenant_id', 'client_id']).execute();
  await db.schema
    .createIndex('heartbeats_next_check_idx')
    .on('heartbeats')
    .column('next_check_at')
    .where(sql.ref('next_check_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('heartbeats_alert_sync_idx')
    .on('heartbeats')
    .column('alert_sync_due_at')
    .where(sql.ref('alert_sync_due_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('heartbeats').ifExists().execute();
}
