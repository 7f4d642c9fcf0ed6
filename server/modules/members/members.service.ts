import { MSG } from '../../../contract/messages.ts';
import type { AssignableRole, TenantMember } from '../../../contract/members.ts';
import type { DB } from '../../db/database.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { findPlan } from '../pricing/pricing.service.ts';
import { isOwnerMember, memberAbilities, memberChangeRefusal } from './members.policy.ts';
import { countSeats, deleteMember, deleteMemberAlertSubscriptions, findMember, listMembers, setMemberRole, type MemberRow } from './members.repository.ts';

/** A member row as Tenant Administration shows it to the caller. */
export function presentMember(ctx: TenantContext, row: MemberRow): TenantMember {
  const role = isOwnerMember(ctx.tenant, row) ? 'owner' : row.role;
  const invited = row.status === 'invited';
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name ?? row.email,
    role,
    status: row.status,
    joinedAt: row.joined_at,
    invitedAt: row.created_at,
    invitationExpiresAt: invited ? (row.invitation_expires_at ?? null) : null,
    isSelf: row.user_id === ctx.user.id,
    abilities: memberAbilities({ userId: ctx.user.id, role: ctx.role }, ctx.tenant, row),
  };
}

export async function listTenantMembers(db: DB, ctx: TenantContext, opts: { page: number; pageSize: number }) {
  authorize(ctx, 'manageMembers');
  const { items, total } = await listMembers(db, ctx.tenant.id, opts);
  return { items: items.map((r) => presentMember(ctx, r)), total, page: opts.page, pageSize: opts.pageSize };
}

export async function tenantDetails(db: DB, ctx: TenantContext) {
  authorize(ctx, 'manageMembers');
  const [plan, seatsUsed] = await Promise.all([findPlan(db, ctx.tenant.plan), countSeats(db, ctx.tenant.id)]);
  return {
    id: ctx.tenant.id,
    name: ctx.tenant.name,
    plan: ctx.tenant.plan,
    planName: plan?.name ?? null,
    maxUsers: ctx.tenant.max_users,
    maxClients: ctx.tenant.max_clients,
    createdAt: ctx.tenant.created_at,
    seatsUsed,
  };
}

/** One member row (or pending invitation) of the caller's tenant, or 404. */
export async function loadMember(db: DB, ctx: TenantContext, memberId: string) {
  const member = await findMember(db, ctx.tenant.id, memberId);
  if (!member) throw notFound(MSG.userNotFoundInTenant);
  return member;
}

/** Role change of a member or of a pending invitation; never an owner's, never one's own. Effective on the next request. */
export async function changeMemberRole(db: DB, ctx: TenantContext, memberId: string, role: AssignableRole) {
  authorize(ctx, 'manageMembers');
  const member = await loadMember(db, ctx, memberId);
  const refusal = memberChangeRefusal({ userId: ctx.user.id, role: ctx.role }, ctx.tenant, member, 'edit');
  if (refusal) throw forbidden(refusal);
  await setMemberRole(db, ctx.tenant.id, member.id, role);
  return presentMember(ctx, await loadMember(db, ctx, memberId));
}

/**
 * Removes a member (their very next request to this tenant answers 404) or revokes a pending invitation (its link
 * stops working). Owners and oneself are refused. Returns the removed member's user id (null for an invitation).
 */
export async function removeMember(db: DB, ctx: TenantContext, memberId: string): Promise<string | null> {
  authorize(ctx, 'manageMembers');
  const member = await loadMember(db, ctx, memberId);
  const refusal = memberChangeRefusal({ userId: ctx.user.id, role: ctx.role }, ctx.tenant, member, 'remove');
  if (refusal) throw forbidden(refusal);
  await db.transaction().execute(async (trx) => {
    await deleteMember(trx, ctx.tenant.id, member.id);
    if (member.user_id) await deleteMemberAlertSubscriptions(trx, ctx.tenant.id, member.user_id);
  });
  return member.user_id ?? null;
}

// Other modules' way to members: who can be assigned an alert, put on call, paged or asked for an approval (active
// members with an account, by name; `userIds` narrows it to those of them still active), and the copy of an account's
// name on its memberships, which a rename updates (the profile page).
export { listActiveMemberAccounts, unsafeRenameUserMemberships } from './members.repository.ts';
