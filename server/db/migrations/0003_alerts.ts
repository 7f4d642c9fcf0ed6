import type { Kysely } from 'kysely';

// issue 3: integrations, alerts, alert events. Frozen once shipped: never import application code here.
export async function up(_db: Kysely<any>): Promise<void> {}
