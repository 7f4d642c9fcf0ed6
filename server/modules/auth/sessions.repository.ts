import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { sql } from 'kysely';
import type { TenantsTable } from '../../db/schema.ts';
import { SESSION_TTL_MS, type SessionUser, type TenantStanding } from '../../http/session.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';

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

const liveSessionUser = (db: DB, token: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.token_hash')
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.expires_at', '>', now());

export async function findSessionUser(db: DB, token: string): Promise<SessionUser | undefined> {
  return liveSessionUser(db, token).executeTakeFirst();
}

// Every column of tenants, spelled out for the prefixed select below (a column added to TenantsTable and not here is a
// type error).
const TENANT_COLUMN_SET: Record<keyof TenantsTable, true> = {
  id: true,
  name: true,
  owner_id: true,
  plan: true,
  max_users: true,
  max_clients: true,
  features: true,
  custom_domain: true,
  logo_url: true,
  created_at: true,
  updated_at: true,
};
const TENANT_COLUMNS = Object.keys(TENANT_COLUMN_SET) as Array<keyof TenantsTable>;

/**
 * The session's user and, in the same query, their standing in one tenant (the tenant row and their active
 * membership): a tenant's route needs both before it does anything, and one round trip serves both. The standing is
 * only what is stored; the policy decides what it means.
 */
export async function findSessionStanding(db: DB, token: string, tenantId: string): Promise<{ user: SessionUser; standing: TenantStanding } | undefined> {
  const row = await liveSessionUser(db, token)
    .leftJoin('tenants as st', (join) => join.on('st.id', '=', tenantId))
    .leftJoin('tenant_members as sm', (join) => join.onRef('sm.tenant_id', '=', 'st.id').onRef('sm.user_id', '=', 'users.id').on('sm.status', '=', 'active'))
    .select(TENANT_COLUMNS.map((c) => sql.ref(`st.${c}`).as(`st_${c}`)))
    .select('sm.role as sm_role')
    .executeTakeFirst();
  if (!row) return undefined;
  const { sm_role, ...rest } = row as unknown as Record<string, unknown>;
  const user = {} as Record<string, unknown>;
  const tenant = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(rest)) {
    if (k.startsWith('st_')) tenant[k.slice(3)] = v;
    else user[k] = v;
  }
  const standing: TenantStanding = { tenantId, tenant: tenant.id == null ? undefined : (tenant as unknown as TenantsTable), memberRole: (sm_role as TenantStanding['memberRole']) ?? null };
  return { user: user as unknown as SessionUser, standing };
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
