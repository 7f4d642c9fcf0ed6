import { z } from 'zod';
import { Email, MemberRole, NewPassword } from './auth.ts';
import { requiredString } from './common.ts';
import { MEMBERS_MSG } from './members-text.ts';
import { MSG } from './messages.ts';

export { MEMBERS_MSG } from './members-text.ts';

/** The refusal when a tenant is full: members plus pending invitations may not exceed the plan's Max Users. */
export const userLimitReached = (max: number) =>
  `This organization has reached its limit of ${max} users (members and pending invitations). Remove a user or revoke an invitation, or move to a larger plan.`;

export const INVITATION_TTL_DAYS = 7;

/** Roles that can be given by invitation or role change: owners are never made through Tenant Administration. */
export const AssignableRole = z.enum(['user', 'admin'], { error: MEMBERS_MSG.roleRequired });
export type AssignableRole = z.infer<typeof AssignableRole>;

export const MemberParams = z.object({ tenantId: z.string().min(1).max(100), memberId: z.string().min(1).max(100) });

export const MemberListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(100),
});

/** A tenant member as Tenant Administration shows it, with what the caller may do to it (worked out by the server). */
export const TenantMember = z
  .object({
    id: z.string(),
    userId: z.string().nullable(),
    email: z.string(),
    displayName: z.string(),
    role: MemberRole,
    status: z.enum(['active', 'invited']),
    joinedAt: z.string().nullable(),
    invitedAt: z.string(),
    /** Expiry of the pending invitation's link; null for active members. In the past: the link no longer works. */
    invitationExpiresAt: z.string().nullable(),
    isSelf: z.boolean(),
    abilities: z.object({ edit: z.boolean(), remove: z.boolean(), resend: z.boolean(), revoke: z.boolean() }),
  })
  .meta({ id: 'TenantMember' });
export type TenantMember = z.infer<typeof TenantMember>;

export const TenantMemberList = z.object({
  items: z.array(TenantMember),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TenantMemberList = z.infer<typeof TenantMemberList>;

/** The Tenant Details card: Name, Plan, Max Users, Max Clients, Created, and how many seats are taken. */
export const TenantDetails = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.string(),
    planName: z.string().nullable(),
    maxUsers: z.number().int(),
    maxClients: z.number().int(),
    createdAt: z.string(),
    /** Members plus pending invitations: what counts against maxUsers. */
    seatsUsed: z.number().int(),
  })
  .meta({ id: 'TenantDetails' });
export type TenantDetails = z.infer<typeof TenantDetails>;

export const InviteMemberBody = z.object({
  email: Email,
  role: AssignableRole.default('user'),
});
export type InviteMemberBody = z.input<typeof InviteMemberBody>;

export const InviteMemberResponse = z.object({ member: TenantMember, emailSent: z.boolean() });
export type InviteMemberResponse = z.infer<typeof InviteMemberResponse>;

export const ChangeRoleBody = z.object({ role: AssignableRole });
export type ChangeRoleBody = z.infer<typeof ChangeRoleBody>;

export const ResendResponse = z.object({ member: TenantMember, emailSent: z.boolean() });

export const TokenParam = z.object({ token: z.string().min(10).max(200) });

/** What the invitation link shows before anyone acts on it. */
export const InvitationPreview = z
  .object({
    tenantName: z.string(),
    email: z.string(),
    role: AssignableRole,
    invitedByName: z.string().nullable(),
    expiresAt: z.string(),
    /** Whether the invited address already has an account: sign in to accept, or set a name and password. */
    accountExists: z.boolean(),
  })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof InvitationPreview>;

export const AcceptInvitationResponse = z.object({ tenantId: z.string(), tenantName: z.string() });
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;

/** A person without an account joins from the link with a name and a password. */
export const RegisterFromInvitationBody = z.object({
  displayName: requiredString(MSG.nameRequired, 120),
  password: NewPassword,
});
export type RegisterFromInvitationBody = z.infer<typeof RegisterFromInvitationBody>;

export const PendingInvitationParams = z.object({ memberId: z.string().min(1).max(100) });
