import type { Kysely } from 'kysely';

// Personal notification rules (issue 27): one row per person, their ordered rules `{ channel, delayMinutes }` as a JSON
// array. Like notification preferences they belong to the person and apply in every tenant; no row keeps today's
// behaviour (every channel of the level at once). Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_rules')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_rules').ifExists().execute();
}
