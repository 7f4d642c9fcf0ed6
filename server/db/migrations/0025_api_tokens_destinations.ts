import type { Kysely } from 'kysely';

// Placeholder: filled in by the work on this migration's issue before it ships.
// Frozen once shipped: never import application code here.
export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}
