import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Email to alert (issue 28). Frozen once shipped: never import application code here.
// - email_token: the local part of the integration's own address (<token>@<INBOUND_EMAIL_DOMAIN>): random, never
//   derived from the key, renewable; kept in plain text because the address is shown again and again (it is an
//   address, not a credential to keep secret like the key). Unique: the inbound listener looks integrations up by it.
//   Nullable only because a column cannot be added NOT NULL without a default; every existing row gets one here and
//   every new one gets one when created.
// - email_settings: the integration's mail rules as JSON text (dedup and resolve patterns, priority words, default
//   priority); null = the defaults.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const token = () => Array.from({ length: 24 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('integrations').addColumn('email_token', 'text').execute();
  await db.schema.alterTable('integrations').addColumn('email_settings', 'text').execute();
  const rows = await db.selectFrom('integrations').select('id').execute();
  for (const row of rows) await db.updateTable('integrations').set({ email_token: token() }).where('id', '=', row.id).execute();
  await db.schema
    .createIndex('integrations_email_token_idx')
    .unique()
    .on('integrations')
    .column('email_token')
    .where(sql.ref('email_token'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('integrations_email_token_idx').execute();
  await db.schema.alterTable('integrations').dropColumn('email_settings').execute();
  await db.schema.alterTable('integrations').dropColumn('email_token').execute();
}
