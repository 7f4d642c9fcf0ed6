import type { Kysely } from 'kysely';

// Rotation layers (issue 27): a schedule's layers as one JSON list (lowest first) beside its weekday template. A
// schedule is read whole by who-is-on-call, so the layers travel with it rather than in a table of their own.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oncall_schedules').addColumn('layers', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oncall_schedules').dropColumn('layers').execute();
}
