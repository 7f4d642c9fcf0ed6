import type { Kysely } from 'kysely';

// API tokens and outbound destinations (issue 29).
// - api_tokens: a tenant's `adk_…` tokens; only the SHA-256 is kept (looked up by it), the prefix is for display.
// - destinations: where a tenant's events are posted (webhooks now; Teams and Slack later). The signing secret is
//   stored encrypted with a server key (AES-256-GCM), the previous one kept until previous_secret_until (rotation).
// - destination_deliveries: one row per event sent to a destination, its attempts and last outcome (the delivery log);
//   message_id is the Standard Webhooks `webhook-id`, stable across retries.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_tenant_idx').on('api_tokens').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('channel', 'text')
    .addColumn('events', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('filter', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('secret_enc', 'text')
    .addColumn('previous_secret_enc', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('destinations_tenant_idx').on('destinations').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('destination_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('destination_deliveries_dest_idx')
    .on('destination_deliveries')
    .columns(['tenant_id', 'destination_id', 'created_at'])
    .execute();
  // One delivery per message and destination: every instance hears each alert change, the first to write it sends it.
  await db.schema.createIndex('destination_deliveries_message_idx').on('destination_deliveries').columns(['destination_id', 'message_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('destination_deliveries').ifExists().execute();
  await db.schema.dropTable('destinations').ifExists().execute();
  await db.schema.dropTable('api_tokens').ifExists().execute();
}
