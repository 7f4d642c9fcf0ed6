import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MemberRole } from '../../contract/auth.ts';
import type { TenantsTable, UsersTable } from '../db/schema.ts';
import { unauthorized } from './errors.ts';

export const SESSION_COOKIE = 'alertdesk_session';
/** How long a session lives: its row's expiry and its cookie's max-age. */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;

const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

export type SessionUser = UsersTable & { token_hash: string };

/** A user's standing in one tenant as stored: the tenant (undefined when there is none) and their active membership role. */
export interface TenantStanding {
  tenantId: string;
  tenant: TenantsTable | undefined;
  memberRole: MemberRole | null;
}

/**
 * How the session hook finds the user behind a cookie's token. The auth module implements it (sessions.service.ts)
 * and app.ts hands it in, so this infrastructure knows no module.
 */
export interface SessionLookup {
  user(token: string): Promise<SessionUser | undefined>;
  /** The user and, read in the same query, their standing in one tenant. */
  userWithStanding(token: string, tenantId: string): Promise<{ user: SessionUser; standing: TenantStanding } | undefined>;
}

/** The bearer value of an API token (`adk_…`), else null: other bearer values (integration keys) are not ours. */
export function apiTokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  // Any value that looks like one counts (a malformed one is refused as invalid, never ignored for the cookie).
  const m = typeof header === 'string' ? /^Bearer\s+(adk_\S*)\s*$/i.exec(header) : null;
  return m ? m[1] : null;
}

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser: SessionUser | null;
    /** The user's standing in the tenant of the route's `:tenantId`, read with the session (tenant-scoped routes only). */
    sessionStanding: TenantStanding | null;
  }
}

/** Loads the signed-in user from the session cookie onto `req.sessionUser` (null when there is none). */
export function registerSession(app: FastifyInstance, lookup: SessionLookup) {
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('sessionStanding', null);
  app.addHook('onRequest', async (req) => {
    // Only the API needs the user; static files and the app shell keep loading while the database is away.
    if (!req.url.startsWith('/api/')) return;
    // A request with an API token is the token's alone (tenant-context.ts): the cookie is not read even when sent,
    // so a request carrying both gains nothing from the cookie.
    if (apiTokenOf(req)) return;
    const token = req.cookies[SESSION_COOKIE];
    if (!token || token.length >= 200) return;
    // A tenant's route (config.tenantScoped) also needs the user's standing in its tenant: the same query brings it,
    // for the route's own check once the request is validated (tenant-context.ts).
    // Only an id of the shape we issue is looked up before validation (a NUL, say, is the validator's to refuse).
    const tenantId = req.routeOptions.config?.tenantScoped ? (req.params as { tenantId?: unknown }).tenantId : undefined;
    if (typeof tenantId === 'string' && PLAIN_ID.test(tenantId)) {
      const found = await lookup.userWithStanding(token, tenantId);
      req.sessionUser = found?.user ?? null;
      req.sessionStanding = found?.standing ?? null;
    } else {
      req.sessionUser = (await lookup.user(token)) ?? null;
    }
  });
}

/** The signed-in user, or 401. */
export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.sessionUser) throw unauthorized();
  return req.sessionUser;
}

/**
 * Route hook for routes that need a signed-in user: as `onRequest`, a request without a session answers 401 before
 * its body or query is even looked at.
 */
export async function signedIn(req: FastifyRequest) {
  requireUser(req);
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
}
