import type { DB } from '../../db/database.ts';
import { consumeLink, spendLinks } from './single-use-links.repository.ts';

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
export const consumePasswordReset = (trx: DB, tokenHash: string, at: string) => consumeLink(trx, 'password_resets', tokenHash, at);

/** Voids every open link of the account (older reset mails, a set-password link): a new password must not be undone. */
export const spendPasswordResets = (trx: DB, userId: string, at: string) => spendLinks(trx, 'password_resets', userId, at);
