import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { TenantsTable } from '../../db/schema.ts';

export function toTenant(row: TenantsTable) {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    plan: row.plan,
    maxUsers: row.max_users,
    maxClients: row.max_clients,
    features: parseJson<string[]>(row.features, []),
    customDomain: row.custom_domain,
    logoUrl: row.logo_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findTenant(db: DB, tenantId: string) {
  return db.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
}

/** Active memberships of a user, with the tenant row. */
export async function listUserTenants(db: DB, userId: string) {
  return db
    .selectFrom('tenant_members')
    .innerJoin('tenants', 'tenants.id', 'tenant_members.tenant_id')
    .select(['tenants.id', 'tenants.name', 'tenants.plan', 'tenants.owner_id', 'tenant_members.role'])
    .where('tenant_members.user_id', '=', userId)
    .where('tenant_members.status', '=', 'active')
    .orderBy('tenants.name')
    .execute();
}

/** The tenant and, in the same query, the caller's active membership role in it (null when not a member). */
export async function findTenantForUser(db: DB, tenantId: string, userId: string) {
  const row = await db
    .selectFrom('tenants')
    .leftJoin('tenant_members', (join) =>
      join.onRef('tenant_members.tenant_id', '=', 'tenants.id').on('tenant_members.user_id', '=', userId).on('tenant_members.status', '=', 'active'),
    )
    .selectAll('tenants')
    .select('tenant_members.role as member_role')
    .where('tenants.id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { member_role, ...tenant } = row;
  return { tenant, memberRole: member_role };
}
