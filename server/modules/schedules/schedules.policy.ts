import type { MemberRole } from '../../../contract/auth.ts';
import { isManager } from '../tenants/tenants.policy.ts';

interface Actor {
  user: { id: string };
  role: MemberRole;
}

/** Owners, admins and the person being replaced may put someone in their place. */
export const canCreateOverride = (actor: Actor, override: { replacedUserId: string }) => isManager(actor.role) || actor.user.id === override.replacedUserId;

/** Owners, admins, the person replaced and whoever added it may remove an override. */
export const canDeleteOverride = (actor: Actor, override: { replaced_user_id: string; created_by: string | null }) =>
  isManager(actor.role) || actor.user.id === override.replaced_user_id || actor.user.id === override.created_by;
