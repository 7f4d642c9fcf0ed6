import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { consumeLink, spendLinks } from './single-use-links.repository.ts';

/** Stores a sign-in link by its token's hash, valid for `ttlMs` from `at`. */
export async function insertSignInLink(db: DB, input: { userId: string; tokenHash: string; at: Date; ttlMs: number }) {
  await db
    .insertInto('sign_in_links')
    .values({
      id: randomUUID(),
      user_id: input.userId,
      token_hash: input.tokenHash,
      created_at: input.at.toISOString(),
      expires_at: new Date(input.at.getTime() + input.ttlMs).toISOString(),
      used_at: null,
    })
    .execute();
}

/** A link by its token's hash, whatever its state, with its account's email (the caller tells used and expired apart). */
export async function findSignInLink(db: DB, tokenHash: string) {
  return db
    .selectFrom('sign_in_links')
    .innerJoin('users', 'users.id', 'sign_in_links.user_id')
    .select(['sign_in_links.user_id', 'sign_in_links.expires_at', 'sign_in_links.used_at', 'users.email'])
    .where('sign_in_links.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Spends a link if it is still live (unused, unexpired); returns its account, or undefined (`consumeLink`). */
export const consumeSignInLink = (db: DB, tokenHash: string, at: string) => consumeLink(db, 'sign_in_links', tokenHash, at);

/** Voids every other open link of the account: once the owner is in, the rest of their mailbox's links are spent. */
export const spendSignInLinks = (db: DB, userId: string, at: string) => spendLinks(db, 'sign_in_links', userId, at);

/** Forgets the account's links that expired a day ago or more (a later use of one then reads "not valid"). */
export async function deleteStaleSignInLinks(db: DB, userId: string, at: Date) {
  const before = new Date(at.getTime() - 24 * 3600_000).toISOString();
  await db.deleteFrom('sign_in_links').where('user_id', '=', userId).where('expires_at', '<', before).execute();
}
