import type { Kysely } from 'kysely';

// One-time sign-in links mailed to an account whose password sign-in is throttled (issue 25): only the token's
// SHA-256 is kept; 15 minutes, single use. Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('sign_in_links_user_idx').on('sign_in_links').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_links').ifExists().execute();
}
