import type { Kysely } from 'kysely';

// Frozen once shipped: never import application code here.
// Issue 28, routing alerts to clients: clients.aliases, a JSON array (text) of other names an event may give the
// client by (RMM organization ids, AWS account or Azure subscription ids, domains, host prefixes), matched without
// regard to case like the name. integrations.routing_rules: the integration's ordered routing rules, a JSON array.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('integrations').addColumn('routing_rules', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  // The last 20 raw events per integration (secrets redacted), what the rules editor previews its rules on.
  await db.schema
    .createTable('integration_raw_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integration_raw_events_recent_idx').on('integration_raw_events').columns(['integration_id', 'received_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('integration_raw_events').execute();
  await db.schema.alterTable('integrations').dropColumn('routing_rules').execute();
  await db.schema.alterTable('clients').dropColumn('aliases').execute();
}
