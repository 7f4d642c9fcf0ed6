import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemberRole, TenantAbilities } from '../../contract/auth.ts';
import type { TenantsTable } from '../db/schema.ts';
import { apiTokenOf, requireUser, type SessionUser, type TenantStanding } from './session.ts';
import { notFound } from './errors.ts';

export interface TenantContext {
  user: SessionUser;
  tenant: TenantsTable;
  role: MemberRole;
  abilities: TenantAbilities;
  /** Set when the request came with an API token: the user is its creator, their name saying "via API token '…'". */
  apiToken?: { id: string; name: string; role: 'read' | 'write' };
  /** Set when a person acts from a chat (a Slack button, a Teams card's link): the timeline says "from Slack". */
  via?: 'Slack' | 'Teams';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route acts in the tenant of its `:tenantId`: before the handler (once the request is validated), the
     * caller's TenantContext is loaded into `req.tenantContext`; 401 without a session, 404 for a tenant the caller
     * is not an active member of, exactly like a missing one.
     */
    tenantScoped?: boolean;
  }
  interface FastifyRequest {
    /** A request made with an API token: its TenantContext, used as it is by the route's check. */
    apiTokenContext: TenantContext | null;
    /** The caller's verified standing in the route's tenant; only on routes declared `config: { tenantScoped: true }`. */
    tenantContext: TenantContext;
  }
}

/**
 * The caller's TenantContext in a tenant, or null when the tenant is missing or the user is not an active member of
 * it (both answer 404 alike). `standing` is what the session hook already read for this tenant, if anything. The
 * tenants module implements it (roles and abilities are its policy) and app.ts hands it in, so this infrastructure
 * knows no module.
 */
export type TenantContextLoader = (user: SessionUser, tenantId: string, standing: TenantStanding | null) => Promise<TenantContext | null>;

/**
 * How a request with `Authorization: Bearer adk_…` gets its actor on a tenant's route: the api-tokens module implements
 * it and hands it in (`provideApiTokenAuth`), so this infrastructure knows no module. It answers the token's whole
 * TenantContext (its user is the token's creator, named after the token) or throws the refusal (401 invalid, expired
 * or revoked; 403 a route or method the token may not use; 429 over its rate).
 */
export type ApiTokenAuth = (token: string, request: { tenantId: string; method: string; routeUrl: string; ip: string }) => Promise<TenantContext>;

const kApiTokenAuth = Symbol('apiTokenAuth');
type AuthHolder = { [kApiTokenAuth]?: ApiTokenAuth };

/** Lets `Authorization: Bearer adk_…` work on tenants' routes (the api-tokens plugin calls it once). */
export function provideApiTokenAuth(app: FastifyInstance, auth: ApiTokenAuth) {
  (app as unknown as AuthHolder)[kApiTokenAuth] = auth;
}

const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * A request with an API token (the session hook left it alone): only a tenant's routes take one, anywhere else the
 * request stays anonymous (401 where a user is needed). Another tenant's route answers 404, exactly like a missing one.
 */
async function tokenActor(app: FastifyInstance, req: FastifyRequest, token: string) {
  const auth = (app as unknown as AuthHolder)[kApiTokenAuth];
  const tenantId = req.routeOptions.config?.tenantScoped ? (req.params as { tenantId?: unknown }).tenantId : undefined;
  if (!auth || typeof tenantId !== 'string' || !PLAIN_ID.test(tenantId)) return;
  const ctx = await auth(token, { tenantId, method: req.method, routeUrl: req.routeOptions.url ?? '', ip: req.ip });
  if (ctx.tenant.id !== tenantId) throw notFound();
  req.sessionUser = ctx.user;
  req.apiTokenContext = ctx;
}

const kTenantContext = Symbol('tenantContext');
type Holder = { [kTenantContext]: TenantContext | null };

/**
 * Makes `config: { tenantScoped: true }` work on every route declared after this (register it before the routes).
 * The check runs as a preHandler, after validation: a request its schema refuses answers 400 whatever the tenant.
 */
export function registerTenantContext(app: FastifyInstance, loadContext: TenantContextLoader) {
  app.decorateRequest(kTenantContext, null);
  app.decorateRequest('apiTokenContext', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const token = apiTokenOf(req);
    if (token) await tokenActor(app, req, token);
  });
  app.decorateRequest('tenantContext', {
    getter(this: FastifyRequest) {
      const ctx = (this as unknown as Holder)[kTenantContext];
      // A handler reading it on a route that did not declare tenantScoped is a bug, not a missing tenant.
      if (!ctx) throw new Error(`${this.routeOptions.url}: req.tenantContext needs config: { tenantScoped: true }`);
      return ctx;
    },
  });

  const loadForRoute = async (req: FastifyRequest) => {
    const user = requireUser(req);
    // An API token's context was made whole, for its own tenant only, when the request came in (session.ts).
    if (req.apiTokenContext) {
      (req as unknown as Holder)[kTenantContext] = req.apiTokenContext;
      return;
    }
    const { tenantId } = req.params as { tenantId: string };
    // Read with the session when it could be (session.ts); else asked now.
    const standing = req.sessionStanding?.tenantId === tenantId ? req.sessionStanding : null;
    const ctx = await loadContext(user, tenantId, standing);
    if (!ctx) throw notFound();
    (req as unknown as Holder)[kTenantContext] = ctx;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.tenantScoped) return;
    if (!route.url.includes(':tenantId')) throw new Error(`${route.url}: a tenantScoped route needs a :tenantId parameter`);
    route.preHandler = [loadForRoute, ...[route.preHandler ?? []].flat()];
  });
}
