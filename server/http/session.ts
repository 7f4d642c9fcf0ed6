import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db/database.ts';
import type { UsersTable } from '../db/schema.ts';
import { findSessionStanding, findSessionUser, SESSION_TTL_MS, type TenantStanding } from '../modules/auth/sessions.repository.ts';
import { unauthorized } from './errors.ts';

export const SESSION_COOKIE = 'alertdesk_session';

const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

export type SessionUser = UsersTable & { token_hash: string };

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser: SessionUser | null;
    /** The user's standing in the tenant of the route's `:tenantId`, read with the session (tenant-scoped routes only). */
    sessionStanding: TenantStanding | null;
  }
}

/** Loads the signed-in user from the session cookie onto `req.sessionUser` (null when there is none). */
export function registerSession(app: FastifyInstance, db: DB) {
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('sessionStanding', null);
  app.addHook('onRequest', async (req) => {
    // Only the API needs the user; static files and the app shell keep loading while the database is away.
    if (!req.url.startsWith('/api/')) return;
    const token = req.cookies[SESSION_COOKIE];
    if (!token || token.length >= 200) return;
    // A tenant's route (config.tenantScoped) also needs the user's standing in its tenant: the same query brings it,
    // for the route's own check once the request is validated (tenant-context.ts).
    // Only an id of the shape we issue is looked up before validation (a NUL, say, is the validator's to refuse).
    const tenantId = req.routeOptions.config?.tenantScoped ? (req.params as { tenantId?: unknown }).tenantId : undefined;
    if (typeof tenantId === 'string' && PLAIN_ID.test(tenantId)) {
      const found = await findSessionStanding(db, token, tenantId);
      req.sessionUser = found?.user ?? null;
      req.sessionStanding = found?.standing ?? null;
    } else {
      req.sessionUser = (await findSessionUser(db, token)) ?? null;
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
