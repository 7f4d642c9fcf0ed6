import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// A heartbeat monitor's own mail address (issue 28: "a mail to the heartbeat's own address is a ping too", for backup
// tools that only send mail). Frozen once shipped: never import application code here.
// - email_token: the local part of <token>@<INBOUND_EMAIL_DOMAIN>, random like an integration's (the two share one
//   namespace: the listener looks integrations up first, then monitors), renewed with the ping URL. Kept in plain text
//   because the address is shown again and again. Nullable only because a column cannot be added NOT NULL without a
//   default; every existing row gets one here and every new one when created.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const token = () => Array.from({ length: 24 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('heartbeats').addColumn('email_token', 'text').execute();
  const rows = await db.selectFrom('heartbeats').select('id').execute();
  for (const row of rows) await db.updateTable('heartbeats').set({ email_token: token() }).where('id', '=', row.id).execute();
  await db.schema
    .createIndex('heartbeats_email_token_idx')
    .unique()
    .on('heartbeats')
    .column('email_token')
    .where(sql.ref('email_token'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('heartbeats_email_token_idx').execute();
  await db.schema.alterTable('heartbeats').dropColumn('email_token').execute();
}
