import type { Kysely } from 'kysely';

// PSA tickets (issue 30). A tenant's connections to its PSA (credentials in one encrypted column), its clients'
// companies there, one ticket row per alert and connection, and the calls made for them: each call is a row written
// before the call (its idempotency record, unique per alert and action), so a retry after a lost answer knows to look
// for the ticket in the PSA before opening another.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('psa_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secrets_enc', 'text', (c) => c.notNull())
    .addColumn('secret_names', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('polled_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('psa_connections_tenant').on('psa_connections').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('psa_company_map')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('psa_connections.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('psa_company_map_pk', ['connection_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('psa_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('psa_connections.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('dedup_key', 'text')
    .addColumn('integration_id', 'text')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text')
    .addColumn('ticket_number', 'text')
    .addColumn('ticket_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('noted_occurrences', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('closed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('psa_tickets_alert').unique().on('psa_tickets').columns(['connection_id', 'alert_id']).execute();
  await db.schema.createIndex('psa_tickets_by_alert').on('psa_tickets').columns(['tenant_id', 'alert_id']).execute();
  await db.schema.createIndex('psa_tickets_ticket').on('psa_tickets').columns(['connection_id', 'ticket_id']).execute();
  await db.schema.createIndex('psa_tickets_dedup').on('psa_tickets').columns(['connection_id', 'integration_id', 'dedup_key', 'created_at']).execute();

  await db.schema
    .createTable('psa_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('psa_connections.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('unique_key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('psa_actions_unique').unique().on('psa_actions').columns(['connection_id', 'unique_key']).execute();
  await db.schema.createIndex('psa_actions_alert').on('psa_actions').columns(['connection_id', 'alert_id', 'status', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['psa_actions', 'psa_tickets', 'psa_company_map', 'psa_connections']) await db.schema.dropTable(t).ifExists().execute();
}
