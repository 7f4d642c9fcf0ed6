import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db/database.ts';
import type { MemberRole, TenantAbilities } from '../../contract/auth.ts';
import type { TenantsTable } from '../db/schema.ts';
import { findTenantForUser } from '../modules/tenants/tenants.repository.ts';
import { resolveRole, tenantAbilities } from '../modules/tenants/tenants.policy.ts';
import { requireUser, type SessionUser } from './session.ts';
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
 * The user's standing in a tenant: the tenant and their membership in one query, the role from the policy. Null
 * when the tenant is missing or the user is not an active member of it (callers answer both alike).
 */
export async function loadTenantContext(db: DB, user: SessionUser, tenantId: string): Promise<TenantContext | null> {
  return contextOf(user, await findTenantForUser(db, tenantId, user.id));
}

function contextOf(user: SessionUser, found: { tenant: TenantsTable | undefined; memberRole: MemberRole | null | undefined } | undefined): TenantContext | null {
  if (!found?.tenant) return null;
  const role = resolveRole(user.id, found.tenant, found.memberRole ? { role: found.memberRole } : undefined);
  return role ? { user, tenant: found.tenant, role, abilities: tenantAbilities(role) } : null;
}

const kTenantContext = Symbol('tenantContext');
type Holder = { [kTenantContext]: TenantContext | null };

/**
 * Makes `config: { tenantScoped: true }` work on every route declared after this (register it before the routes).
 * The check runs as a preHandler, after validation, where the handlers of these routes always made it.
 */
export function registerTenantContext(app: FastifyInstance, db: DB) {
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
    const standing = req.sessionStanding;
    const ctx = standing && standing.tenantId === tenantId ? contextOf(user, standing) : await loadTenantContext(db, user, tenantId);
    if (!ctx) throw notFound();
    (req as unknown as Holder)[kTenantContext] = ctx;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.tenantScoped) return;
    if (!route.url.includes(':tenantId')) throw new Error(`${route.url}: a tenantScoped route needs a :tenantId parameter`);
    route.preHandler = [loadForRoute, ...[route.preHandler ?? []].flat()];
  });
}
