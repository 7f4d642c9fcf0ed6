import type { Kysely } from 'kysely';

// Placeholder: filled by the work. Frozen once shipped: never import application code here.
export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}
