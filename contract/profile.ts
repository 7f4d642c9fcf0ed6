import { z } from 'zod';
import { NewPassword, PublicUser } from './auth.ts';
import { MSG } from './messages.ts';

/** Texts of our own for Profile and Settings (the spec is silent); server and client say the same thing. */
export const PROFILE_MSG = {
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Current password is incorrect',
  noPasswordYet: 'Your account signs in with Google and has no password yet. Use the password reset email to set one.',
  passwordChanged: 'Password changed. You have been signed out on your other devices.',
  tooManyPasswordAttempts: 'Too many attempts. Please try again later.',
  profileSaved: 'Profile updated',
  preferencesSaved: 'Notification preferences saved',
  phoneInvalid: 'Enter the phone number in international format, e.g. +14155550123',
  phoneRequiredForSms: 'A phone number is required for SMS notifications',
  tagRequired: 'Tag cannot be empty',
  pushSubscriptionInvalid: 'Invalid push subscription',
  pushEndpointNotPublic: 'The push service of this subscription is not at a public address',
  timeZoneInvalid: 'Choose a valid time zone',
  timeZoneDescription: 'Pages and emails show times in this zone.',
} as const;

export const PRIORITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const Priority = z.enum(PRIORITIES);
export type Priority = z.infer<typeof Priority>;

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{1,14}$/;

/** A field left out stays as it is; at least one of displayName and timeZone is given. */
export const UpdateProfileBody = z
  .object({
    displayName: z.string({ error: MSG.displayNameEmpty }).trim().min(1, MSG.displayNameEmpty).max(120, 'Display name must be at most 120 characters').optional(),
    /** Accepted only so a client that sends the email back is told it cannot change. */
    email: z.string().max(254).optional(),
    /** An IANA zone name; the server checks it with Luxon (kept out of the browser bundle) and corrects only its letter case. */
    timeZone: z.string({ error: PROFILE_MSG.timeZoneInvalid }).trim().min(1, PROFILE_MSG.timeZoneInvalid).max(64, PROFILE_MSG.timeZoneInvalid).optional(),
  })
  .refine((b) => b.displayName !== undefined || b.timeZone !== undefined, { message: MSG.displayNameEmpty, path: ['displayName'] });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ProfileResponse = z.object({ user: PublicUser });

export const ChangePasswordBody = z
  .object({
    currentPassword: z.string({ error: PROFILE_MSG.currentPasswordRequired }).min(1, PROFILE_MSG.currentPasswordRequired).max(200),
    newPassword: NewPassword,
    confirmPassword: z.string({ error: MSG.passwordsDoNotMatch }).max(200),
  })
  .refine((b) => b.newPassword === b.confirmPassword, { message: MSG.passwordsDoNotMatch, path: ['confirmPassword'] });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const AlertSubscription = z.discriminatedUnion('type', [
  z.object({ type: z.literal('client'), id: z.string().min(1).max(100), name: z.string().optional() }),
  z.object({ type: z.literal('priority'), value: Priority }),
  z.object({ type: z.literal('tag'), value: z.string() }),
]);
export type AlertSubscription = z.infer<typeof AlertSubscription>;

/** As saved: tags are trimmed and lowercased (a response schema cannot carry the transform, hence two schemas). */
const AlertSubscriptionInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('client'), id: z.string().min(1).max(100) }),
  z.object({ type: z.literal('priority'), value: Priority }),
  z.object({ type: z.literal('tag'), value: z.string().trim().min(1, PROFILE_MSG.tagRequired).max(50, 'Tags are at most 50 characters').transform((s) => s.toLowerCase()) }),
]);

/**
 * Notification preferences of spec section 3. Email, SMS, push and the phone number belong to the user and apply in
 * every organization; alert subscriptions belong to the user in one tenant (the tenant's clients, priorities, tags).
 */
export const NotificationPreferences = z
  .object({
    email: z.object({ enabled: z.boolean(), alertNotifications: z.boolean(), weeklyDigest: z.boolean(), systemUpdates: z.boolean() }),
    sms: z.object({ enabled: z.boolean(), alertTypes: z.array(Priority).max(PRIORITIES.length) }),
    push: z.object({ enabled: z.boolean() }),
    phoneNumber: z.string().nullable(),
    alertSubscriptions: z.array(AlertSubscription).max(200),
  })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const NotificationPreferencesBody = NotificationPreferences.extend({
  alertSubscriptions: z.array(AlertSubscriptionInput).max(200),
  phoneNumber: z
    .string()
    .trim()
    .max(20, PROFILE_MSG.phoneInvalid)
    .nullable()
    .optional()
    .transform((s) => (s ? s.replace(/[\s().-]/g, '') : null))
    .refine((s) => s === null || E164.test(s), PROFILE_MSG.phoneInvalid),
}).refine((b) => !b.sms.enabled || b.phoneNumber !== null, { message: PROFILE_MSG.phoneRequiredForSms, path: ['phoneNumber'] });
export type NotificationPreferencesBody = z.input<typeof NotificationPreferencesBody>;

export const NotificationPreferencesResponse = NotificationPreferences.extend({
  /** When the user last saved their channel settings; null means they see the defaults of spec section 9. */
  updatedAt: z.string().nullable(),
});
export type NotificationPreferencesResponse = z.infer<typeof NotificationPreferencesResponse>;

/** Defaults of spec section 9 for a user who never saved preferences. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  email: { enabled: true, alertNotifications: true, weeklyDigest: true, systemUpdates: false },
  sms: { enabled: false, alertTypes: ['critical', 'high'] },
  push: { enabled: true },
  phoneNumber: null,
  alertSubscriptions: [],
};

/** A browser's push subscription as PushSubscription.toJSON() gives it. */
export const PushSubscriptionBody = z.object({
  token: z.object({
    endpoint: z.url({ protocol: /^https$/, error: PROFILE_MSG.pushSubscriptionInvalid }).max(1000),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }, { error: PROFILE_MSG.pushSubscriptionInvalid }),
  }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const RemovePushSubscriptionQuery = z.object({ endpoint: z.string().min(1).max(1000) });

/** The userTokens record of spec section 3: the user's push subscriptions (endpoints only; keys never leave). */
export const UserTokens = z
  .object({
    userId: z.string(),
    tokens: z.array(z.object({ endpoint: z.string(), createdAt: z.string(), updatedAt: z.string() })),
    createdAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'UserTokens' });
export type UserTokens = z.infer<typeof UserTokens>;

/** Push subscriptions are refreshed when the last save is older than this (spec section 9). */
export const PUSH_TOKEN_REFRESH_MS = 7 * 24 * 3600_000;

/** Issue 27: "Send me a test page" and personal notification rules (texts of our own; the issue is silent on them). */
export const TEST_PAGE_MSG = {
  title: 'Alertdesk test page',
  text: 'This is a test page from Alertdesk. When an alert needs you, it reaches you like this.',
  sms: 'Alertdesk test page: when an alert needs you, it reaches you like this.',
  voice: 'This is a test call from Alertdesk. When an alert needs you, it reaches you like this. Goodbye.',
  sent: 'Sent',
  notConfigured: (channel: string) => `${channel} is not configured on this server`,
  tooMany: 'Too many test pages. Please try again in a few minutes.',
  channelInvalid: 'Choose email, push, SMS or voice',
} as const;

/** The channels a person can be reached by: the escalation levels' channels, and a voice call (a level that allows SMS allows it). */
export const PERSONAL_CHANNELS = ['email', 'push', 'sms', 'voice'] as const;
export const PersonalChannel = z.enum(PERSONAL_CHANNELS, { error: TEST_PAGE_MSG.channelInvalid });
export type PersonalChannel = z.infer<typeof PersonalChannel>;
export const PERSONAL_CHANNEL_LABELS: Record<PersonalChannel, string> = { email: 'Email', push: 'Push', sms: 'SMS', voice: 'Voice call' };

export const TestPageBody = z.object({ channel: PersonalChannel });

/** What became of a test page: sent; skipped (the person's preferences or subscriptions), failed or not configured, with the reason. */
export const TestPageResult = z.object({
  channel: PersonalChannel,
  outcome: z.enum(['sent', 'skipped', 'failed', 'not_configured']),
  reason: z.string().nullable(),
});
export type TestPageResult = z.infer<typeof TestPageResult>;

export const PushSubscriptionStatusQuery = z.object({ endpoint: z.string().min(1).max(1000) });
/** Whether the server holds this browser's push subscription under the signed-in user (so pages can reach it). */
export const PushSubscriptionStatus = z.object({ subscribed: z.boolean(), updatedAt: z.string().nullable() });
export type PushSubscriptionStatus = z.infer<typeof PushSubscriptionStatus>;

export const RULES_MSG = {
  saved: 'Notification rules saved',
  delayInvalid: 'Enter a delay from 0 to 1440 minutes',
  channelTwice: 'Each channel can be used once in your rules',
  tooMany: 'At most 10 rules',
} as const;

/** The longest delay of a rule: a day. */
export const MAX_RULE_DELAY_MINUTES = 1440;

/** One step of how a person is reached when paged: by `channel`, `delayMinutes` after the level fired, until acknowledged. */
export const NotificationRule = z.object({
  channel: PersonalChannel,
  delayMinutes: z.number({ error: RULES_MSG.delayInvalid }).int(RULES_MSG.delayInvalid).min(0, RULES_MSG.delayInvalid).max(MAX_RULE_DELAY_MINUTES, RULES_MSG.delayInvalid),
});
export type NotificationRule = z.infer<typeof NotificationRule>;

/** A person's rules; none keeps the default: every channel of the level at once. Saved in delay order. */
export const NotificationRulesBody = z.object({
  rules: z
    .array(NotificationRule)
    .max(10, RULES_MSG.tooMany)
    .superRefine((rules, ctx) => {
      const seen = new Set<string>();
      rules.forEach((r, i) => {
        if (seen.has(r.channel)) ctx.addIssue({ code: 'custom', message: RULES_MSG.channelTwice, path: [i, 'channel'] });
        seen.add(r.channel);
      });
    }),
});
export type NotificationRulesBody = z.infer<typeof NotificationRulesBody>;

export const NotificationRulesResponse = z.object({ rules: z.array(NotificationRule), updatedAt: z.string().nullable() });
export type NotificationRulesResponse = z.infer<typeof NotificationRulesResponse>;
