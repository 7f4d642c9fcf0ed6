import type { DB } from '../../db/database.ts';
import type { TenantMembersTable, TenantsTable } from '../../db/schema.ts';

export async function findTenant(db: DB, tenantId: string) {
  return db.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
}

/** Active memberships of a user in every tenant, with the tenant row (deliberately across tenants: the user's own tenant list). */
export async function unsafeListUserTenants(db: DB, userId: string) {
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

export async function insertTenant(trx: DB, row: TenantsTable) {
  await trx.insertInto('tenants').values(row).execute();
}

/** The owner's membership of a new tenant (tenants.service.ts: createTenantWithOwner). */
export async function insertOwnerMembership(trx: DB, row: TenantMembersTable) {
  await trx.insertInto('tenant_members').values(row).execute();
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
export async function updateTenant(db: DB, tenantId: string, set: { name: string } & Partial<Pick<TenantsTable, 'plan' | 'max_users' | 'max_clients' | 'features'>>, at: string) {
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
