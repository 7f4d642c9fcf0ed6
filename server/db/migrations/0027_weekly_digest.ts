import type { Kysely } from 'kysely';

// The weekly digest (issue 31): one row per person and week (the local date of the Monday it is for). The row is
// the digest's claim across instances and restarts: written 'sending' before the mail goes out, 'sent' after; a
// week with a 'sent' row is never mailed again, one left 'sending' (a failed or interrupted try) is tried again.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('digest_sends')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addPrimaryKeyConstraint('digest_sends_pk', ['user_id', 'week'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('digest_sends').ifExists().execute();
}
