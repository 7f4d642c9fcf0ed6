import type { MemberRole, TenantAbilities } from '../../../contract/auth.ts';
import { forbidden } from '../../http/errors.ts';

/** Role resolution of spec section 6: the tenant's owner is owner whatever the member row says. */
export function resolveRole(userId: string, tenant: { owner_id: string }, member: { role: MemberRole } | undefined): MemberRole | null {
  if (tenant.owner_id === userId) return 'owner';
  return member?.role ?? null;
}

export const isManager = (role: MemberRole) => role === 'owner' || role === 'admin';

/** What a member of the given role may do in a tenant; the UI shows what the server computed here. */
export function tenantAbilities(role: MemberRole): TenantAbilities {
  const manager = isManager(role);
  return {
    manageMembers: manager,
    manageEscalation: manager,
    manageApprovalPolicies: manager,
    viewAllApprovals: manager,
    manageIntegrations: manager,
    // The spec lets every member create, edit and delete clients.
    manageClients: true,
  };
}

/**
 * The one authorization verb, the first line of every service that needs an ability: 403 (with `message`, else the
 * generic text) unless the caller's role in the tenant grants it. Membership itself was checked when the route
 * loaded the TenantContext (404 for others).
 */
export function authorize(actor: { abilities: TenantAbilities }, ability: keyof TenantAbilities, message?: string) {
  if (!actor.abilities[ability]) throw forbidden(message);
}
