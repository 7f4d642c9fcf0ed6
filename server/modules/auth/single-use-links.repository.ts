import type { DB } from '../../db/database.ts';

/** The tables of links mailed to an account and used once: password resets and sign-in links share their columns. */
export type SingleUseLinkTable = 'password_resets' | 'sign_in_links';

/**
 * Spends a link if it is still live (unused, unexpired) and returns its account, or undefined. One conditional UPDATE:
 * of two uses at once, exactly one gets the account (PostgreSQL re-checks `used_at` after the row lock; SQLite writes
 * one at a time).
 */
export async function consumeLink(db: DB, table: SingleUseLinkTable, tokenHash: string, at: string): Promise<string | undefined> {
  // One table's type stands for both: their columns are the same.
  const row = await db
    .updateTable(table as 'password_resets')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Voids every open link of the account in `table`. */
export async function spendLinks(db: DB, table: SingleUseLinkTable, userId: string, at: string) {
  await db
    .updateTable(table as 'password_resets')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
