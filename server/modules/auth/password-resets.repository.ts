import type { DB } from '../../db/database.ts';

/** Stores a reset (or set-password) link by its token's hash, valid for `ttlMs` from `at`. */
export async function insertPasswordReset(db: DB, input: { tokenHash: string; userId: string; at: Date; ttlMs: number }) {
  await db
    .insertInto('password_resets')
    .values({
      token_hash: input.tokenHash,
      user_id: input.userId,
      created_at: input.at.toISOString(),
      expires_at: new Date(input.at.getTime() + input.ttlMs).toISOString(),
      used_at: null,
    })
    .execute();
}

/** Spends a link if it is still live (unused, unexpired); returns its account, or undefined. */
export async function consumePasswordReset(trx: DB, tokenHash: string, at: string) {
  const row = await trx
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Voids every open link of the account (older reset mails, a set-password link): a new password must not be undone. */
export async function spendPasswordResets(trx: DB, userId: string, at: string) {
  await trx.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
