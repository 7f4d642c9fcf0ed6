import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;

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

/** True while the session with this hash exists and has not expired (live streams re-check it). */
export async function isSessionLive(db: DB, tokenHash: string) {
  const row = await db.selectFrom('sessions').select('token_hash').where('token_hash', '=', tokenHash).where('expires_at', '>', now()).executeTakeFirst();
  return row !== undefined;
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

/** True when the user holds a live session opened from this address (their usual address, for the sign-in ceiling). */
export async function hasLiveSessionFrom(db: DB, userId: string, ip: string) {
  const row = await db
    .selectFrom('sessions')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('ip', '=', ip)
    .where('expires_at', '>', now())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
