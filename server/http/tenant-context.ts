import type { FastifyRequest } from 'fastify';
import type { DB } from '../db/database.ts';
import type { MemberRole, TenantAbilities } from '../../contract/auth.ts';
import type { TenantsTable } from '../db/schema.ts';
import { findTenantForUser } from '../modules/tenants/tenants.repository.ts';
import { resolveRole, tenantAbilities } from '../modules/tenants/tenants.policy.ts';
import { requireUser, type SessionUser } from './session.ts';
import { forbidden, notFound } from './errors.ts';

export interface TenantContext {
  user: SessionUser;
  tenant: TenantsTable;
  role: MemberRole;
  abilities: TenantAbilities;
}

/**
 * The caller's standing in the tenant named by the path. A tenant the caller is not an active member of answers
 * 404 exactly like a missing one, so no tenant's existence leaks.
 */
export async function requireTenant(db: DB, req: FastifyRequest, tenantId: string): Promise<TenantContext> {
  const user = requireUser(req);
  const found = await findTenantForUser(db, tenantId, user.id);
  if (!found) throw notFound();
  const role = resolveRole(user.id, found.tenant, found.memberRole ? { role: found.memberRole } : undefined);
  if (!role) throw notFound();
  return { user, tenant: found.tenant, role, abilities: tenantAbilities(role) };
}

/** Throws 403 unless the caller holds the ability in this tenant. */
export function requireAbility(ctx: TenantContext, ability: keyof TenantAbilities, message?: string) {
  if (!ctx.abilities[ability]) throw forbidden(message);
}
