import type { DB } from '../../db/database.ts';
import { isUniqueViolation, now } from '../../db/database.ts';
import { MSG, OWN_MSG } from '../../../contract/messages.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { findPlan } from '../pricing/pricing.service.ts';
import { createUser, defaultDisplayName, findUserByEmail, toPublicUser } from '../users/users.service.ts';
import { createTenantWithOwner, unsafeListUserTenants } from '../tenants/tenants.service.ts';
import { hashPassword } from '../../lib/password.ts';
import { resolveRole, tenantAbilities } from '../tenants/tenants.policy.ts';
import type { UsersTable } from '../../db/schema.ts';
import { pendingInvitationsFor } from '../members/invitations.service.ts';

/** A plan the wizard may offer: it exists and is public. Anything else is "Please select a plan". */
async function registrablePlan(db: DB, planId: string, field: string) {
  const plan = await findPlan(db, planId);
  if (!plan || !plan.isPublic) throw badRequest(MSG.selectPlan, { [field]: MSG.selectPlan });
  return plan;
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
  const at = now();
  try {
    return await db.transaction().execute(async (trx) => {
      const displayName = defaultDisplayName(input.user.displayName, input.user.email);
      const user = await createUser(trx, { email: input.user.email, displayName, passwordHash }, at);
      const tenantId = await createTenantWithOwner(trx, { name: input.tenant.name, plan, owner: { id: user.id, email: user.email, displayName } }, at);
      return { userId: user.id, tenantId };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

/** The callable registerGoogleUserWithTenant: a tenant for a signed-in (OIDC) user who has none yet. */
export async function registerTenantForUser(db: DB, user: UsersTable, tenant: { name: string; plan: string }) {
  const plan = await registrablePlan(db, tenant.plan, 'tenantData.plan');
  if ((await unsafeListUserTenants(db, user.id)).length > 0) throw conflict(OWN_MSG.alreadyHasTenant);
  const owner = { id: user.id, email: user.email, displayName: user.display_name };
  const tenantId = await db.transaction().execute((trx) => createTenantWithOwner(trx, { name: tenant.name, plan, owner }, now()));
  return { userId: user.id, tenantId };
}

/** GET /api/me: the user, their tenants with role and abilities in each, platform abilities, invitations waiting. */
export async function describeMe(db: DB, user: UsersTable) {
  const [rows, pendingInvitations] = await Promise.all([unsafeListUserTenants(db, user.id), pendingInvitationsFor(db, user)]);
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
