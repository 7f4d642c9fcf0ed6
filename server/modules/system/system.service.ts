import type { DB, Dialect } from '../../db/database.ts';
import { isUniqueViolation, now } from '../../db/database.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import { ANALYTICS_DAYS, ANALYTICS_PRIORITIES, SYSTEM_MSG, type PlatformAnalytics } from '../../../contract/system.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { sendSetPasswordEmail } from '../auth/password-reset.service.ts';
import { findPlan } from '../pricing/pricing.service.ts';
import { unsafeCountAlertsByPriority, unsafeCountAlertsPerDay } from '../alerts/alerts.service.ts';
import { unsafeCountAllClients } from '../clients/clients.service.ts';
import {
  createTenantWithOwner,
  deleteTenant,
  findTenant,
  planPresetColumns,
  unsafeClearOwner,
  unsafeCountTenants,
  unsafeCountTenantsByPlan,
  updateTenant,
} from '../tenants/tenants.service.ts';
import { createUser, defaultDisplayName, deleteUser, findUserByEmail, findUserById, lockSuperAdmins, setUserRole, unsafeCountUsers } from '../users/users.service.ts';
import { adminChangeRefusal } from './system.policy.ts';

async function existingPlan(db: DB, planId: string) {
  const plan = await findPlan(db, planId);
  if (!plan) throw badRequest(SYSTEM_MSG.unknownPlan, { plan: SYSTEM_MSG.unknownPlan });
  return plan;
}

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
  const tenantOwner = owner ? { id: owner.id, email: owner.email, displayName: owner.display_name } : null;
  return db.transaction().execute((trx) => createTenantWithOwner(trx, { name: input.name, plan, owner: tenantOwner }, now()));
}

/** Renames a tenant and moves it to a plan; a plan change resets its limits and features to the plan's preset. */
export async function updateTenantAsAdmin(db: DB, tenantId: string, input: { name: string; plan: string }) {
  const tenant = await findTenant(db, tenantId);
  if (!tenant) throw notFound();
  const planChanged = tenant.plan !== input.plan;
  const preset = planChanged ? planPresetColumns(await existingPlan(db, input.plan)) : {};
  await updateTenant(db, tenantId, { name: input.name, ...preset }, now());
}

/**
 * Deletes a tenant and, through the `on delete cascade` of every tenant-owned table, all its data (members,
 * clients, alerts…) in one transaction.
 */
export async function deleteTenantAsAdmin(db: DB, tenantId: string) {
  await db.transaction().execute(async (trx) => {
    if (!(await deleteTenant(trx, tenantId))) throw notFound();
  });
}

/** An account created by a super admin: no password yet, plan 'trial', and an email to set the password. */
export async function createUserAsAdmin(deps: Deps, input: { email: string; role: 'user' | 'superAdmin'; displayName?: string }) {
  const emailTaken = () => conflict(OWN_MSG.emailTaken, { email: OWN_MSG.emailTaken });
  if (await findUserByEmail(deps.db, input.email)) throw emailTaken();
  const displayName = defaultDisplayName(input.displayName, input.email);
  const user = await createUser(deps.db, { email: input.email, displayName, role: input.role, plan: 'trial' }, now()).catch((e: unknown) => {
    throw isUniqueViolation(e) ? emailTaken() : e;
  });
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
    await setUserRole(trx, userId, role, now());
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
    await unsafeClearOwner(trx, userId, now());
    await deleteUser(trx, userId);
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
  const { since, dates } = analyticsWindow(today);
  const [tenants, users, clients, byPlan, days, priorities] = await Promise.all([
    unsafeCountTenants(db),
    unsafeCountUsers(db),
    unsafeCountAllClients(db),
    unsafeCountTenantsByPlan(db),
    unsafeCountAlertsPerDay(db, since),
    unsafeCountAlertsByPriority(db, since),
  ]);
  const perDay = new Map(days.map((r) => [r.day, r.count]));
  const perPriority = new Map(priorities.map((r) => [r.priority, r.count]));
  const alertsPerDay = dates.map((date) => ({ date, count: perDay.get(date) ?? 0 }));
  return {
    totals: { tenants, users, clients, alertsLast30Days: alertsPerDay.reduce((s, d) => s + d.count, 0) },
    alertsPerDay,
    alertsByPriority: ANALYTICS_PRIORITIES.map((priority) => ({ priority, count: perPriority.get(priority) ?? 0 })),
    tenantsByPlan: byPlan.sort((a, b) => b.count - a.count || a.plan.localeCompare(b.plan)),
  };
}
