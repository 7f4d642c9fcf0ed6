import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DB, Dialect } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import { ANALYTICS_DAYS, ANALYTICS_PRIORITIES, SYSTEM_MSG, type PlatformAnalytics } from '../../../contract/system.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { isUniqueViolation } from '../auth/auth.service.ts';
import { sendSetPasswordEmail } from '../auth/password-reset.service.ts';
import { findPlan, includedFeatureIds } from '../pricing/pricing-plans.repository.ts';
import { findTenant } from '../tenants/tenants.repository.ts';
import { defaultDisplayName, findUserByEmail, findUserById } from '../users/users.repository.ts';
import { adminChangeRefusal } from './system.policy.ts';
import { lockSuperAdmins } from './system.repository.ts';

async function existingPlan(db: DB, planId: string) {
  const plan = await findPlan(db, planId);
  if (!plan) throw badRequest(SYSTEM_MSG.unknownPlan, { plan: SYSTEM_MSG.unknownPlan });
  return plan;
}

/** Limits and features of a plan's preset, as tenant columns (spec section 4, Plan change). */
const presetColumns = (plan: Awaited<ReturnType<typeof existingPlan>>) => ({
  plan: plan.id,
  max_users: plan.maxUsers,
  max_clients: plan.maxClients,
  features: JSON.stringify(includedFeatureIds(plan)),
});

/**
 * A tenant created by a super admin: the plan's preset, and either the spec's empty owner or, when an owner email
 * is given, that existing account as owner with its membership, in one transaction.
 */
export async function createTenantAsAdmin(db: DB, input: { name: string; plan: string; ownerEmail?: string }) {
  const plan = await existingPlan(db, input.plan);
  let owner: Awaited<ReturnType<typeof findUserByEmail>> = undefined;
  if (input.ownerEmail) {
    owner = await findUserByEmail(db, input.ownerEmail);
    if (!owner) throw badRequest(SYSTEM_MSG.ownerNotFound, { ownerEmail: SYSTEM_MSG.ownerNotFound });
  }
  const id = randomUUID();
  const at = now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('tenants')
      .values({ id, name: input.name, owner_id: owner?.id ?? '', ...presetColumns(plan), custom_domain: null, logo_url: null, created_at: at, updated_at: at })
      .execute();
    if (owner) {
      await trx
        .insertInto('tenant_members')
        .values({
          id: randomUUID(),
          tenant_id: id,
          user_id: owner.id,
          email: owner.email,
          display_name: owner.display_name,
          role: 'owner',
          status: 'active',
          joined_at: at,
          invited_by: null,
          created_at: at,
        })
        .execute();
    }
  });
  return id;
}

/** Renames a tenant and moves it to a plan; a plan change resets its limits and features to the plan's preset. */
export async function updateTenantAsAdmin(db: DB, tenantId: string, input: { name: string; plan: string }) {
  const tenant = await findTenant(db, tenantId);
  if (!tenant) throw notFound();
  const planChanged = tenant.plan !== input.plan;
  const preset = planChanged ? presetColumns(await existingPlan(db, input.plan)) : {};
  await db
    .updateTable('tenants')
    .set({ name: input.name, ...preset, updated_at: now() })
    .where('id', '=', tenantId)
    .execute();
}

/**
 * Deletes a tenant and, through the `on delete cascade` of every tenant-owned table, all its data (members,
 * clients, alerts…) in one transaction.
 */
export async function deleteTenantAsAdmin(db: DB, tenantId: string) {
  await db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('tenants').where('id', '=', tenantId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound();
  });
}

/** An account created by a super admin: no password yet, plan 'trial', and an email to set the password. */
export async function createUserAsAdmin(deps: Deps, input: { email: string; role: 'user' | 'superAdmin'; displayName?: string }) {
  const emailTaken = () => conflict(OWN_MSG.emailTaken, { email: OWN_MSG.emailTaken });
  if (await findUserByEmail(deps.db, input.email)) throw emailTaken();
  const at = now();
  const user = {
    id: randomUUID(),
    email: input.email,
    display_name: defaultDisplayName(input.displayName, input.email),
    password_hash: null,
    role: input.role,
    plan: 'trial',
    oidc_subject: null,
    created_at: at,
    updated_at: at,
    last_sign_in_at: null,
  };
  try {
    await deps.db.insertInto('users').values(user).execute();
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
  await sendSetPasswordEmail(deps, user);
  return user;
}

function refuse(reason: 'self' | 'last', action: 'demote' | 'delete') {
  if (reason === 'self') return forbidden(action === 'demote' ? SYSTEM_MSG.cannotDemoteSelf : SYSTEM_MSG.cannotDeleteSelf);
  return new AppError(409, 'conflict', SYSTEM_MSG.lastSuperAdmin);
}

/** Changes a user's platform role; nobody removes their own super admin role and the last one stays. */
export async function setUserRoleAsAdmin(db: DB, dialect: Dialect, actorId: string, userId: string, role: 'user' | 'superAdmin') {
  await db.transaction().execute(async (trx) => {
    const superAdminIds = await lockSuperAdmins(trx, dialect);
    // The actor may have been demoted by someone else while this request waited for the lock.
    if (!superAdminIds.includes(actorId)) throw forbidden(SYSTEM_MSG.onlySuperAdmins);
    const target = await findUserById(trx, userId);
    if (!target) throw notFound();
    if (target.role === role) return;
    if (role === 'user') {
      const reason = adminChangeRefusal({ actorId, targetId: userId, targetIsSuperAdmin: true, action: 'demote', superAdminIds });
      if (reason) throw refuse(reason, 'demote');
    }
    await trx.updateTable('users').set({ role, updated_at: now() }).where('id', '=', userId).execute();
  });
}

/**
 * Deletes an account: its sessions, memberships and reset links go with it (cascade); tenants it owned stay, with
 * the empty owner the spec gives tenants created by an admin.
 */
export async function deleteUserAsAdmin(db: DB, dialect: Dialect, actorId: string, userId: string) {
  await db.transaction().execute(async (trx) => {
    const superAdminIds = await lockSuperAdmins(trx, dialect);
    if (!superAdminIds.includes(actorId)) throw forbidden(SYSTEM_MSG.onlySuperAdmins);
    const target = await findUserById(trx, userId);
    if (!target) throw notFound();
    const reason = adminChangeRefusal({ actorId, targetId: userId, targetIsSuperAdmin: target.role === 'superAdmin', action: 'delete', superAdminIds });
    if (reason) throw refuse(reason, 'delete');
    await trx.updateTable('tenants').set({ owner_id: '', updated_at: now() }).where('owner_id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
}

/** Start (inclusive) of the UTC day `days - 1` days before `today`, and every day from there to today. */
export function analyticsWindow(today: Date, days = ANALYTICS_DAYS) {
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
  const dates = Array.from({ length: days }, (_, i) => new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10));
  return { since: start.toISOString(), dates };
}

/** Platform figures for the Analytics tab. */
export async function platformAnalytics(db: DB, today = new Date()): Promise<PlatformAnalytics> {
  const count = (table: 'tenants' | 'users' | 'clients') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const { since, dates } = analyticsWindow(today);
  const [tenants, users, clients, byPlan, days, priorities] = await Promise.all([
    count('tenants'),
    count('users'),
    count('clients'),
    db
      .selectFrom('tenants')
      .leftJoin('pricing_plans', 'pricing_plans.id', 'tenants.plan')
      .select((eb) => ['tenants.plan', 'pricing_plans.name', eb.fn.countAll<number>().as('n')])
      .groupBy(['tenants.plan', 'pricing_plans.name'])
      .execute(),
    // Raw SQL keeps this module independent of the alerts module's table types; substr() over ISO-8601 text gives
    // the UTC day on both databases, and alerts_created_priority_idx (migration 0004) serves both queries.
    sql<{ day: string; n: number }>`select substr(created_at, 1, 10) as day, count(*) as n from alerts where created_at >= ${since} group by substr(created_at, 1, 10)`.execute(db),
    sql<{ priority: string; n: number }>`select priority, count(*) as n from alerts where created_at >= ${since} group by priority`.execute(db),
  ]);
  const perDay = new Map(days.rows.map((r) => [r.day, Number(r.n)]));
  const perPriority = new Map(priorities.rows.map((r) => [r.priority, Number(r.n)]));
  const alertsPerDay = dates.map((date) => ({ date, count: perDay.get(date) ?? 0 }));
  return {
    totals: { tenants, users, clients, alertsLast30Days: alertsPerDay.reduce((s, d) => s + d.count, 0) },
    alertsPerDay,
    alertsByPriority: ANALYTICS_PRIORITIES.map((priority) => ({ priority, count: perPriority.get(priority) ?? 0 })),
    tenantsByPlan: byPlan
      .map((r) => ({ plan: r.plan, planName: r.name ?? null, count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.plan.localeCompare(b.plan)),
  };
}
