import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { TenantsTable } from '../../db/schema.ts';
import { insertMember } from '../members/members.repository.ts';
import { includedFeatureIds, type Plan } from '../pricing/pricing-plans.repository.ts';

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
  const tenantId = randomUUID();
  const { owner } = input;
  await trx
    .insertInto('tenants')
    .values({
      id: tenantId,
      name: input.name,
      owner_id: owner?.id ?? '',
      ...planPresetColumns(input.plan),
      custom_domain: null,
      logo_url: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  if (owner) {
    await insertMember(trx, {
      id: randomUUID(),
      tenant_id: tenantId,
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
  return tenantId;
}

/**
 * Takes the tenant's row lock (PostgreSQL) or the write lock (SQLite) for the rest of the transaction, so checks
 * against its limits (seats, clients) run one after the other and cannot both take the last place. The update
 * changes nothing; it returns the limits, or undefined when the tenant is gone.
 */
export async function lockTenant(trx: DB, tenantId: string) {
  return trx
    .updateTable('tenants')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', tenantId)
    .returning(['max_users', 'max_clients'])
    .executeTakeFirst();
}

/** Renames a tenant and, with a plan preset, moves it to that plan's limits and features. */
export async function updateTenant(db: DB, tenantId: string, set: { name: string } & Partial<ReturnType<typeof planPresetColumns>>, at: string) {
  await db
    .updateTable('tenants')
    .set({ ...set, updated_at: at })
    .where('id', '=', tenantId)
    .execute();
}

/** Deletes the tenant and, by `on delete cascade`, everything it owns; false when there was no such tenant. */
export async function deleteTenant(db: DB, tenantId: string) {
  const deleted = await db.deleteFrom('tenants').where('id', '=', tenantId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Every tenant the user owns gets the empty owner (deliberately across tenants: the account is being deleted). */
export async function unsafeClearOwner(db: DB, userId: string, at: string) {
  await db.updateTable('tenants').set({ owner_id: '', updated_at: at }).where('owner_id', '=', userId).execute();
}

/** How many tenants the platform has (deliberately unscoped: platform analytics). */
export async function unsafeCountTenants(db: DB) {
  const row = await db.selectFrom('tenants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Tenants per plan id, with the plan's name when it still exists (deliberately unscoped: platform analytics). */
export async function unsafeCountTenantsByPlan(db: DB) {
  const rows = await db
    .selectFrom('tenants')
    .leftJoin('pricing_plans', 'pricing_plans.id', 'tenants.plan')
    .select((eb) => ['tenants.plan', 'pricing_plans.name', eb.fn.countAll<number>().as('n')])
    .groupBy(['tenants.plan', 'pricing_plans.name'])
    .execute();
  return rows.map((r) => ({ plan: r.plan, planName: r.name ?? null, count: Number(r.n) }));
}
