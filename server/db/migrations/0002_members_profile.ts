import type { Kysely } from 'kysely';

// issue 5: invitations, notification preferences, user push tokens. Frozen once shipped: never import application code here.
export async function up(_db: Kysely<any>): Promise<void> {}
