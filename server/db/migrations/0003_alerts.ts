import { sql, type Kysely, type SqlBool } from 'kysely';

// issue 3: integrations, alerts, alert notes and alert events. Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('set null'))
    // sha256 of the key; the key itself is shown once and never stored.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('integrations_tenant_idx').on('integrations').columns(['tenant_id', 'created_at']).execute();
  await db.schema.createIndex('integrations_client_idx').on('integrations').column('client_id').where(sql.ref('client_id'), 'is not', null).execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('set null'))
    // No foreign key: integrations are revoked, never deleted, and a tenant's deletion removes both.
    .addColumn('integration_id', 'text')
    .addColumn('dedup_key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // lower(title + description + source + dedup key) for the history search on both databases.
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // User ids, kept as history: the timeline snapshots the actor's name, so no foreign key to users.
    .addColumn('acknowledged_by', 'text')
    .addColumn('acknowledged_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('closed_by', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('assigned_to', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();

  const active = sql<SqlBool>`status in ('new', 'acknowledged', 'in_progress')`;
  // At most one open alert per (tenant, integration, key): concurrent identical triggers become one insert and
  // updates (INSERT … ON CONFLICT … WHERE <this predicate> DO UPDATE, the same statement on both databases);
  // a trigger after resolution inserts a new row because resolved and closed rows are outside the index.
  await db.schema
    .createIndex('alerts_open_dedup_uq')
    .on('alerts')
    .columns(['tenant_id', 'integration_id', 'dedup_key'])
    .unique()
    .where(active)
    .execute();
  // The active list, newest first, with or without a status or priority filter, and the stat counts.
  await db.schema.createIndex('alerts_active_idx').on('alerts').columns(['tenant_id', 'created_at', 'id']).where(active).execute();
  await db.schema.createIndex('alerts_active_status_idx').on('alerts').columns(['tenant_id', 'status', 'created_at']).where(active).execute();
  await db.schema.createIndex('alerts_active_priority_idx').on('alerts').columns(['tenant_id', 'priority', 'created_at']).where(active).execute();
  // History: resolved and closed alerts, most recently resolved first.
  await db.schema
    .createIndex('alerts_history_idx')
    .on('alerts')
    .columns(['tenant_id', 'resolved_at', 'id'])
    .where(sql<SqlBool>`status in ('resolved', 'closed')`)
    .execute();
  // Serves "set null" when a client is deleted, and the history's client filter.
  await db.schema.createIndex('alerts_client_idx').on('alerts').columns(['client_id', 'resolved_at']).where(sql.ref('client_id'), 'is not', null).execute();

  await db.schema
    .createTable('alert_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_notes_alert_idx').on('alert_notes').columns(['alert_id', 'created_at']).execute();

  // The timeline: who did what to an alert, and when. Creation and repeats are read from the alert row itself, so
  // the ingestion path writes one row per new event.
  await db.schema
    .createTable('alert_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_events_alert_idx').on('alert_events').columns(['alert_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['alert_events', 'alert_notes', 'alerts', 'integrations']) await db.schema.dropTable(t).ifExists().execute();
}
