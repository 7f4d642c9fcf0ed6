import { sql, type Kysely } from 'kysely';

// Pages that say whose alert it is, survive a mail outage and calm a storm (issue 25). Frozen once shipped: never
// import application code here.
// - short_code: an SMS page's short acknowledge link (/a/<code>), unique; the signed link is made from the row on use.
// - fallback_from: the channel whose failures made this page (the person's next channel, paged at once).
// - the outcomes 'held' (a page kept for the person's next summary, during a storm) and 'summarized' (in a summary
//   that was sent) are new values of `outcome`: a text column, nothing to change.
// - (user_id, updated_at): how many pages a person got in the last minute; the held pages of a person.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_attempts').addColumn('short_code', 'text').execute();
  await db.schema.alterTable('notification_attempts').addColumn('fallback_from', 'text').execute();
  await db.schema
    .createIndex('notification_attempts_short_code_idx')
    .unique()
    .on('notification_attempts')
    .column('short_code')
    .where(sql.ref('short_code'), 'is not', null)
    .execute();
  await db.schema.createIndex('notification_attempts_user_recent_idx').on('notification_attempts').columns(['user_id', 'updated_at']).execute();
  await db.schema
    .createIndex('notification_attempts_held_idx')
    .on('notification_attempts')
    .columns(['user_id', 'channel'])
    .where(sql.ref('outcome'), '=', sql.lit('held'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notification_attempts_held_idx').execute();
  await db.schema.dropIndex('notification_attempts_user_recent_idx').execute();
  await db.schema.dropIndex('notification_attempts_short_code_idx').execute();
  await db.schema.alterTable('notification_attempts').dropColumn('fallback_from').execute();
  await db.schema.alterTable('notification_attempts').dropColumn('short_code').execute();
}
