import type { Kysely } from 'kysely';

// issue 4: system administration, if it needs tables. Frozen once shipped: never import application code here.
export async function up(_db: Kysely<any>): Promise<void> {}
