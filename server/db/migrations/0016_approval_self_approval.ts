import type { Kysely } from 'kysely';

// Approval policies say whether a requester who is the only approver of a level may approve their own request there
// (off for every policy, as the rule was missing before). Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('approval_policies').addColumn('self_approval_allowed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('approval_policies').dropColumn('self_approval_allowed').execute();
}
