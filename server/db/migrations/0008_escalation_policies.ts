import { sql, type Kysely } from 'kysely';

// issue 11: escalation policies, and the policy an integration or a client routes its alerts to. Frozen once
// shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('escalation_policies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON text: {critical, high, medium, low, info} in minutes (0 or null: no acknowledgement target).
    .addColumn('escalation_times', 'text', (c) => c.notNull())
    // JSON text: {userIds, scheduleIds, notificationChannels} (+ timeAfterPrevious in minutes for levels 2 and 3).
    .addColumn('level_1', 'text', (c) => c.notNull())
    .addColumn('level_2', 'text', (c) => c.notNull())
    .addColumn('level_3', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('escalation_policies_tenant_idx').on('escalation_policies').columns(['tenant_id', 'created_at', 'id']).execute();
  // One default per tenant, whatever the code does: a second concurrent default fails here instead of being stored.
  await db.schema
    .createIndex('escalation_policies_one_default_uq')
    .on('escalation_policies')
    .column('tenant_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  // Which policy pages for an integration's or a client's alerts; cleared when the policy is deleted.
  for (const table of ['integrations', 'clients']) {
    await db.schema
      .alterTable(table)
      .addColumn('escalation_policy_id', 'text', (c) => c.references('escalation_policies.id').onDelete('set null'))
      .execute();
    await db.schema
      .createIndex(`${table}_escalation_policy_idx`)
      .on(table)
      .column('escalation_policy_id')
      .where(sql.ref('escalation_policy_id'), 'is not', null)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['integrations', 'clients']) {
    await db.schema.dropIndex(`${table}_escalation_policy_idx`).ifExists().execute();
    await db.schema.alterTable(table).dropColumn('escalation_policy_id').execute();
  }
  await db.schema.dropTable('escalation_policies').ifExists().execute();
}
