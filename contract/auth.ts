import { z } from 'zod';
import { MSG, OWN_MSG, SIGN_IN_LINK_MSG } from './messages.ts';
import { PASSWORD_MIN } from './plans.ts';
import { isEmail, requiredString } from './common.ts';

export const Email = requiredString(MSG.emailRequired, 254)
  .refine(isEmail, MSG.invalidEmail)
  .transform((s) => s.toLowerCase());

export const NewPassword = z
  .string({ error: MSG.passwordRequired })
  .min(1, MSG.passwordRequired)
  .min(PASSWORD_MIN, MSG.passwordTooShort)
  .max(200, 'Password must be at most 200 characters');

export const SignInBody = z.object({
  email: z.string({ error: MSG.fillAllFields }).trim().min(1, MSG.fillAllFields).max(254).transform((s) => s.toLowerCase()),
  password: z.string({ error: MSG.fillAllFields }).min(1, MSG.fillAllFields).max(200),
});

export const TenantData = z.object({
  name: requiredString(MSG.orgNameRequired, 120),
  plan: requiredString(MSG.selectPlan, 100),
});

/** Body of POST /api/functions/registerUserWithTenant; fields in the order the spec checks them. */
export const RegisterUserWithTenantBody = z.object({
  userData: z.object({
    email: Email,
    displayName: requiredString(MSG.nameRequired, 120),
    password: NewPassword,
  }),
  tenantData: TenantData,
});

export const RegisterGoogleUserWithTenantBody = z.object({ tenantData: TenantData });

export const PasswordResetBody = z.object({ email: Email });
export const PasswordResetConfirmBody = z.object({ token: z.string().min(10).max(200), password: NewPassword });

// One-time sign-in links (issue 25); their texts, error code and lifetime are in messages.ts (the web reads them without zod).
export const SignInLinkBody = z.object({ email: Email });
export const SignInLinkSent = z.object({ ok: z.literal(true), message: z.string() });
export const SignInLinkTokenBody = z.object({ token: z.string({ error: SIGN_IN_LINK_MSG.invalid }).min(10, SIGN_IN_LINK_MSG.invalid).max(200, SIGN_IN_LINK_MSG.invalid) });
/** What a live link is for, read without using it (mail scanners open links): the page asks "Sign in as …?". */
export const SignInLinkPreview = z.object({ email: z.string(), expiresAt: z.string() });
export type SignInLinkPreview = z.infer<typeof SignInLinkPreview>;

export const Role = z.enum(['user', 'superAdmin']);
export const MemberRole = z.enum(['owner', 'admin', 'user']);
export type MemberRole = z.infer<typeof MemberRole>;

export const TenantAbilities = z.object({
  manageMembers: z.boolean(),
  manageEscalation: z.boolean(),
  manageApprovalPolicies: z.boolean(),
  viewAllApprovals: z.boolean(),
  manageIntegrations: z.boolean(),
  manageClients: z.boolean(),
});
export type TenantAbilities = z.infer<typeof TenantAbilities>;

export const MeTenant = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.string(),
  role: MemberRole,
  abilities: TenantAbilities,
});
export type MeTenant = z.infer<typeof MeTenant>;

export const PublicUser = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: Role,
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  hasPassword: z.boolean(),
  emailVerified: z.boolean(),
  /** IANA zone of the person's pages and emails (issue 25); null until set (the web app then saves the browser's). */
  timeZone: z.string().nullable(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** An invitation waiting for the signed-in user's email address (issue 5): shown after sign-in to accept or decline. */
export const PendingInvitation = z.object({
  id: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  role: MemberRole,
  invitedByName: z.string().nullable(),
  invitedAt: z.string(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

export const MeResponse = z
  .object({
    user: PublicUser,
    tenants: z.array(MeTenant),
    abilities: z.object({ systemAdmin: z.boolean() }),
    pendingInvitations: z.array(PendingInvitation),
  })
  .meta({ id: 'Me' });
export type MeResponse = z.infer<typeof MeResponse>;

export const RegisterResponse = z.object({ userId: z.string(), tenantId: z.string() });

export const PublicConfig = z.object({
  appHostPrefix: z.string(),
  oidcEnabled: z.boolean(),
  vapidPublicKey: z.string().nullable(),
  /** False when no SMS provider is configured: the sms channel pages nobody and the screens say so. */
  smsEnabled: z.boolean(),
  /** False when no voice-call provider is configured (VOICE_*): the screens offer no voice call. */
  voiceEnabled: z.boolean(),
  /** Where the web app reports errors (production mode with SENTRY_DSN_WEB or SENTRY_DSN); null: nothing is loaded. */
  sentryDsn: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

export { OWN_MSG };
