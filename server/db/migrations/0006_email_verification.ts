import type { Kysely } from 'kysely';

// When the account's mailbox was last proven (OIDC verified email, an emailed link followed). Frozen once shipped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
}
