import type { Kysely } from 'kysely';

// Each person's IANA time zone: pages and emails give times there (issue 25). Null until the person's browser or the
// profile says; readers fall back to UTC. Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('time_zone').execute();
}
