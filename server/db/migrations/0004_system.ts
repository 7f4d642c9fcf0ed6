import type { Kysely } from 'kysely';

// issue 4: system administration. Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  // Platform analytics count every tenant's alerts of the last 30 days by day and by priority; the alerts module's
  // indexes all start with tenant_id, so without this the query reads the whole table.
  await db.schema.createIndex('alerts_created_priority_idx').on('alerts').columns(['created_at', 'priority']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_created_priority_idx').ifExists().execute();
}
