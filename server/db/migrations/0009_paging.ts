import { sql, type Kysely } from 'kysely';

// Issue 11: the escalation engine and delivery. Frozen once shipped: never import application code here.
//
// - alerts.escalation_state: 'pending' for every alert inserted from now on (the column default, so the batched
//   ingestion upsert needs no change); the engine starts each pending alert's escalation and moves it on. Existing
//   alerts are 'stopped': an upgrade does not page anyone for old alerts. The partial index finds pending alerts.
// - jobs: durable timed work (escalation steps, deliveries). `unique_key` makes scheduling idempotent; a claim sets
//   `lock_token`/`locked_until` (a lease: a worker killed mid-job lets another retry it after the lease).
// - notification_attempts: one row per (alert, step, person, channel), unique: a second page is impossible.
// - ack_tokens: single-use acknowledge links (stored as sha256), bound to alert and person.
// - server_keys: keys the server generates once and keeps (VAPID).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('escalation_state', 'text', (c) => c.notNull().defaultTo('pending')).execute();
  await db.schema.alterTable('alerts').addColumn('escalation_level', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('alerts').addColumn('escalation_policy_id', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('overdue_at', 'text').execute();
  await sql`update alerts set escalation_state = 'stopped'`.execute(db);
  await db.schema
    .createIndex('alerts_escalation_pending_idx')
    .on('alerts')
    .column('created_at')
    .where(sql.ref('escalation_state'), '=', sql.lit('pending'))
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.references('alerts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('unique_key', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('lock_token', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['due_at']).execute();
  await db.schema.createIndex('jobs_alert_idx').on('jobs').columns(['alert_id']).execute();

  await db.schema
    .createTable('notification_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('level', 'integer')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('notification_attempts_once_uq', ['alert_id', 'step', 'user_id', 'channel'])
    .execute();

  await db.schema
    .createTable('ack_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('server_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['server_keys', 'ack_tokens', 'notification_attempts', 'jobs']) await db.schema.dropTable(t).ifExists().execute();
  await db.schema.dropIndex('alerts_escalation_pending_idx').ifExists().execute();
  for (const c of ['overdue_at', 'escalation_policy_id', 'escalation_level', 'escalation_state']) await db.schema.alterTable('alerts').dropColumn(c).execute();
}
