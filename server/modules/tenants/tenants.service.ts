import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import type { TenantsTable } from '../../db/schema.ts';
import type { SessionUser, TenantStanding } from '../../http/session.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { includedFeatureIds, type Plan } from '../pricing/pricing.service.ts';
import { resolveRole, tenantAbilities } from './tenants.policy.ts';
import { findTenantForUser, insertOwnerMembership, insertTenant } from './tenants.repository.ts';

/**
 * The caller's TenantContext in a tenant: from the standing the session hook read with the session when there is
 * one, else from one query now. Null when the tenant is missing or the user is not an active member of it (callers
 * answer both alike). What http/tenant-context.ts runs on a tenant's route (app.ts hands it in).
 */
export async function loadTenantContext(db: DB, user: SessionUser, tenantId: string, standing: TenantStanding | null = null): Promise<TenantContext | null> {
  const found = standing ?? (await findTenantForUser(db, tenantId, user.id));
  if (!found?.tenant) return null;
  const role = resolveRole(user.id, found.tenant, found.memberRole ? { role: found.memberRole } : undefined);
  return role ? { user, tenant: found.tenant, role, abilities: tenantAbilities(role) } : null;
}

/** Limits and features of a plan's preset, as tenant columns (spec section 4, Plan change). */
export const planPresetColumns = (plan: Plan) => ({
  plan: plan.id,
  max_users: plan.maxUsers,
  max_clients: plan.maxClients,
  features: JSON.stringify(includedFeatureIds(plan)),
});

/**
 * A tenant on its plan's preset and, when it has an owner, the owner's active membership, inside the caller's
 * transaction. Without an owner the tenant gets the spec's empty ownerId (a tenant created by a super admin).
 */
export async function createTenantWithOwner(
  trx: DB,
  input: { name: string; plan: Plan; owner: { id: string; email: string; displayName: string } | null },
  at: string,
): Promise<string> {
  const tenant: TenantsTable = {
    id: randomUUID(),
    name: input.name,
    owner_id: input.owner?.id ?? '',
    ...planPresetColumns(input.plan),
    custom_domain: null,
    logo_url: null,
    created_at: at,
    updated_at: at,
  };
  await insertTenant(trx, tenant);
  const { owner } = input;
  if (owner) {
    await insertOwnerMembership(trx, {
      id: randomUUID(),
      tenant_id: tenant.id,
      user_id: owner.id,
      email: owner.email,
      display_name: owner.displayName,
      role: 'owner',
      status: 'active',
      joined_at: at,
      invited_by: null,
      created_at: at,
    });
  }
  return tenant.id;
}

// Other modules' way to tenant rows: limits checks lock the tenant, the on-call feed checks its owner's standing,
// registration lists a user's tenants, platform administration edits, deletes and counts them.
export {
  deleteTenant,
  findTenant,
  findTenantForUser,
  lockTenant,
  unsafeClearOwner,
  unsafeCountTenants,
  unsafeCountTenantsByPlan,
  unsafeListUserTenants,
  updateTenant,
} from './tenants.repository.ts';
