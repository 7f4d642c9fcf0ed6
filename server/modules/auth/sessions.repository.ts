import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;

/** A fresh random token (256 bits) and the hash we store in its place. */
export function newToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: DB, userId: string, meta: { userAgent?: string; ip?: string }) {
  const { token, hash } = newToken();
  const created = new Date();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hash,
      user_id: userId,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + SESSION_TTL_MS).toISOString(),
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip ?? null,
    })
    .execute();
  return token;
}

export async function findSessionUser(db: DB, token: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.token_hash')
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.expires_at', '>', now())
    .executeTakeFirst();
}

export async function deleteSession(db: DB, token: string) {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** Ends every session of a user except, optionally, the one still in use. */
export async function deleteUserSessions(db: DB, userId: string, exceptTokenHash?: string) {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptTokenHash) q = q.where('token_hash', '!=', exceptTokenHash);
  await q.execute();
}
