import type { MemberRole } from '../../../contract/auth.ts';
import { MEMBERS_MSG } from '../../../contract/members.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import { isManager } from '../tenants/tenants.policy.ts';

export interface MemberActor {
  userId: string;
  role: MemberRole;
}

export interface MemberTarget {
  user_id: string | null;
  role: MemberRole;
  status: 'active' | 'invited';
}

/** An owner by role or by being the tenant's ownerId: spec section 6 says owners cannot be edited or removed. */
export const isOwnerMember = (tenant: { owner_id: string }, target: MemberTarget) =>
  target.role === 'owner' || (target.user_id !== null && target.user_id === tenant.owner_id);

/**
 * Why the actor may not change (role) or remove the target, or null when they may. Owners and admins manage
 * members; nobody touches an owner or themselves.
 */
export function memberChangeRefusal(actor: MemberActor, tenant: { owner_id: string }, target: MemberTarget, action: 'edit' | 'remove'): string | null {
  if (!isManager(actor.role)) return OWN_MSG.forbidden;
  if (isOwnerMember(tenant, target)) return MEMBERS_MSG.ownerProtected;
  if (target.user_id === actor.userId) return action === 'edit' ? MEMBERS_MSG.cannotEditSelf : MEMBERS_MSG.cannotRemoveSelf;
  return null;
}

/** What the actor may do to one member row; the UI shows exactly these actions. */
export function memberAbilities(actor: MemberActor, tenant: { owner_id: string }, target: MemberTarget) {
  const manager = isManager(actor.role);
  const free = manager && !isOwnerMember(tenant, target) && target.user_id !== actor.userId;
  const invited = target.status === 'invited';
  return { edit: free, remove: free && !invited, resend: manager && invited, revoke: manager && invited };
}
