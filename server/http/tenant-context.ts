import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemberRole, TenantAbilities } from '../../contract/auth.ts';
import type { TenantsTable } from '../db/schema.ts';
import { requireUser, type SessionUser, type TenantStanding } from './session.ts';
import { notFound } from './errors.ts';

export interface TenantContext {
  user: SessionUser;
  tenant: TenantsTable;
  role: MemberRole;
  abilities: TenantAbilities;
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

const kTenantContext = Symbol('tenantContext');
type Holder = { [kTenantContext]: TenantContext | null };

/**
 * Makes `config: { tenantScoped: true }` work on every route declared after this (register it before the routes).
 * The check runs as a preHandler, after validation: a request its schema refuses answers 400 whatever the tenant.
 */
export function registerTenantContext(app: FastifyInstance, loadContext: TenantContextLoader) {
  app.decorateRequest(kTenantContext, null);
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
