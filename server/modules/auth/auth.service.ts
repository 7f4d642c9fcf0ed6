import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { MSG, OWN_MSG } from '../../../contract/messages.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { findPlan, includedFeatureIds } from '../pricing/pricing-plans.repository.ts';
import { defaultDisplayName, findUserByEmail } from '../users/users.repository.ts';
import { listUserTenants } from '../tenants/tenants.repository.ts';
import { hashPassword } from './password.ts';
import { resolveRole, tenantAbilities } from '../tenants/tenants.policy.ts';
import { toPublicUser } from '../users/users.repository.ts';
import type { UsersTable } from '../../db/schema.ts';
import { pendingInvitationsFor } from '../members/pending-invitations.ts';

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/.test(err?.message ?? '');
};

/** A plan the wizard may offer: it exists and is public. Anything else is "Please select a plan". */
async function registrablePlan(db: DB, planId: string, field: string) {
  const plan = await findPlan(db, planId);
  if (!plan || !plan.isPublic) throw badRequest(MSG.selectPlan, { [field]: MSG.selectPlan });
  return plan;
}

/** Creates the tenant and its owner membership inside the caller's transaction. */
async function insertTenantWithOwner(
  trx: DB,
  owner: { id: string; email: string; displayName: string },
  tenant: { name: string },
  plan: Awaited<ReturnType<typeof registrablePlan>>,
) {
  const at = now();
  const tenantId = randomUUID();
  await trx
    .insertInto('tenants')
    .values({
      id: tenantId,
      name: tenant.name,
      owner_id: owner.id,
      plan: plan.id,
      max_users: plan.maxUsers,
      max_clients: plan.maxClients,
      features: JSON.stringify(includedFeatureIds(plan)),
      custom_domain: null,
      logo_url: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await trx
    .insertInto('tenant_members')
    .values({
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
    })
    .execute();
  return tenantId;
}

/** The callable registerUserWithTenant: user, tenant (owned by the user) and owner membership in one transaction. */
export async function registerUserWithTenant(
  db: DB,
  input: { user: { email: string; password: string; displayName: string }; tenant: { name: string; plan: string } },
) {
  const plan = await registrablePlan(db, input.tenant.plan, 'tenantData.plan');
  const emailTaken = () => conflict(OWN_MSG.emailTaken, { 'userData.email': OWN_MSG.emailTaken });
  if (await findUserByEmail(db, input.user.email)) throw emailTaken();
  const passwordHash = await hashPassword(input.user.password);
  const userId = randomUUID();
  const at = now();
  try {
    const tenantId = await db.transaction().execute(async (trx) => {
      const displayName = defaultDisplayName(input.user.displayName, input.user.email);
      await trx
        .insertInto('users')
        .values({
          id: userId,
          email: input.user.email,
          display_name: displayName,
          password_hash: passwordHash,
          role: 'user',
          plan: null,
          oidc_subject: null,
          created_at: at,
          updated_at: at,
          last_sign_in_at: null,
        })
        .execute();
      return insertTenantWithOwner(trx, { id: userId, email: input.user.email, displayName }, input.tenant, plan);
    });
    return { userId, tenantId };
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

/** The callable registerGoogleUserWithTenant: a tenant for a signed-in (OIDC) user who has none yet. */
export async function registerTenantForUser(db: DB, user: UsersTable, tenant: { name: string; plan: string }) {
  const plan = await registrablePlan(db, tenant.plan, 'tenantData.plan');
  if ((await listUserTenants(db, user.id)).length > 0) throw conflict(OWN_MSG.alreadyHasTenant);
  const tenantId = await db
    .transaction()
    .execute((trx) => insertTenantWithOwner(trx, { id: user.id, email: user.email, displayName: user.display_name }, tenant, plan));
  return { userId: user.id, tenantId };
}

/** GET /api/me: the user, their tenants with role and abilities in each, platform abilities, invitations waiting. */
export async function describeMe(db: DB, user: UsersTable) {
  const [rows, pendingInvitations] = await Promise.all([listUserTenants(db, user.id), pendingInvitationsFor(db, user)]);
  return {
    user: toPublicUser(user),
    tenants: rows.map((t) => {
      const role = resolveRole(user.id, t, { role: t.role }) ?? 'user';
      return { id: t.id, name: t.name, plan: t.plan, role, abilities: tenantAbilities(role) };
    }),
    abilities: { systemAdmin: user.role === 'superAdmin' },
    pendingInvitations,
  };
}

export { isUniqueViolation };
