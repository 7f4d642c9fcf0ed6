import { z } from 'zod';
import type { AlertPriority } from './alerts.ts';
import { requiredString, TenantParam } from './common.ts';
import { MSG } from './messages.ts';

/** Notification channels of a level (spec section 3). */
export const ESCALATION_CHANNELS = ['email', 'push', 'sms'] as const;
export type EscalationChannel = (typeof ESCALATION_CHANNELS)[number];
export const CHANNEL_LABELS: Record<EscalationChannel, string> = { email: 'Email', push: 'Push', sms: 'SMS' };

export const LEVELS = ['level_1', 'level_2', 'level_3'] as const;
export type LevelKey = (typeof LEVELS)[number];

/**
 * Whom a level pages on each of its schedules (issue 27): the person on call (primary), or the backup as well. The
 * secondary is never paged unless a level says so; "the secondary after 10 minutes" is a later level naming the
 * same schedule with 'primary_and_secondary'.
 */
export const ESCALATION_NOTIFY = ['primary', 'primary_and_secondary'] as const;
export type EscalationNotify = (typeof ESCALATION_NOTIFY)[number];
export const NOTIFY_LABELS: Record<EscalationNotify, string> = { primary: 'Primary only', primary_and_secondary: 'Primary and secondary' };

/**
 * Bounds of our own: a time longer than a week is a typing slip, not a policy (and keeps due times far from any
 * overflow); a level pages a team, not the whole company.
 */
export const ESCALATION_LIMITS = { name: 100, description: 2000, maxMinutes: 10_080, usersPerLevel: 50, schedulesPerLevel: 20 } as const;

/** Escalation defaults of spec section 9. */
export const ESCALATION_DEFAULTS = {
  escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null } as Record<AlertPriority, number | null>,
  timeAfterPrevious: { level_2: 30, level_3: 60 },
  notificationChannels: { level_1: ['email', 'push'], level_2: ['email', 'push', 'sms'], level_3: ['email', 'push', 'sms'] } as Record<LevelKey, EscalationChannel[]>,
} as const;

/** Texts of our own for escalation policies (the spec's are in MSG), so server and screen say the same thing. */
export const ESCALATION_MSG = {
  policyNotFound: 'Escalation policy not found',
  manageForbidden: 'Only owners and admins can manage escalation policies',
  unknownUsers: 'Every user must be a member of this organization',
  unknownSchedules: 'Every schedule must be an on-call schedule of this organization',
  userIdsInvalid: 'Users must be a list of user ids',
  scheduleIdsInvalid: 'Schedules must be a list of schedule ids',
  tooManyUsers: `A level can have at most ${ESCALATION_LIMITS.usersPerLevel} users`,
  tooManySchedules: `A level can have at most ${ESCALATION_LIMITS.schedulesPerLevel} schedules`,
  channelsInvalid: 'Channels must be email, push or sms',
  notifyInvalid: "Who is paged on a schedule must be 'primary' or 'primary_and_secondary'",
  timeTooLong: `Must be at most ${ESCALATION_LIMITS.maxMinutes} minutes (one week)`,
  isDefaultInvalid: 'Default must be true or false',
  levelInvalid: 'A level must be an object with users, schedules and channels',
  timesInvalid: 'Escalation times must be an object with a time per priority',
  created: 'Policy created',
  updated: 'Policy updated',
  deleted: 'Policy deleted',
  createPolicy: 'Create Policy',
  defaultBadge: 'Default',
  noTarget: 'None',
  deleteConfirm: (name: string) => `Are you sure you want to delete ${name}? This action cannot be undone.`,
  deleteDefaultWarning:
    'This is the default policy. Once it is deleted, alerts whose integration and client name no policy page nobody until another policy is made the default.',
  staleMembersRemoved: 'People who are no longer members of this organization were taken off this policy; save to keep the change.',
  /** The policy select of the integration and client forms. */
  selectLabel: 'Escalation policy',
  integrationSelectHelp: "Who is paged for alerts through this key. None: the client's policy, else the default policy.",
  clientSelectHelp: "Who is paged for this client's alerts, unless their integration names a policy. None: the default policy.",
  selectPlaceholder: 'None (use the default)',
  choicesLoadFailed: 'Escalation policies could not be loaded',
  // The one-click default policy (issue 25): the getting-started panel's fourth step.
  oneClickName: 'Default policy',
  oneClickDescription: 'Made in one click: level 1 is paged by email and push as soon as an alert opens. Add people, schedules and later levels here.',
  defaultExists: 'This organization already has a default escalation policy.',
  oneClickCreated: 'Default escalation policy created: new alerts now page level 1 by email and push.',
  oneClickFailed: 'Failed to create the default escalation policy. Please try again.',
  defaultLoadFailed: 'Could not check for a default escalation policy.',
} as const;

/**
 * When each level is paged and what the times mean (issue 11, "What happens in time"), shown as help in the
 * policy modal; the escalation engine follows the same rules.
 */
export const ESCALATION_TIMING_HELP = [
  'Level 1 is paged when an alert opens: a new alert, or a trigger after it was resolved.',
  'Level 2 is paged its "Minutes after Level 1" once Level 1 was paged, if the alert is still unacknowledged; Level 3 its "Minutes after Level 2" once Level 2 was paged.',
  "An escalation time is the acknowledgement target of that priority: an alert still unacknowledged past it is marked overdue and the level paged last is paged once more. An empty time (Info by default) means alerts of that priority page nobody and have no target.",
  'Acknowledging, resolving or closing the alert stops its escalation. Edits to a policy apply to escalations already running; deleting a policy stops them.',
] as const;

/**
 * A time input of spec section 5: a whole number of minutes of at least 1 is kept (fractions rounded down); an
 * invalid number (empty, not a number, below 1) becomes `invalid` (0, null for info; 30 and 60 for the level delays).
 * Left out entirely, the field takes the default of spec section 9. Over a week is refused.
 */
function minutes(invalid: number | null, fallback: number | null) {
  return z
    .unknown()
    .optional()
    .transform((v): number | null => {
      if (v === undefined) return fallback;
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
      return Number.isFinite(n) && n >= 1 ? Math.floor(n) : invalid;
    })
    .pipe(z.number().max(ESCALATION_LIMITS.maxMinutes, ESCALATION_MSG.timeTooLong).nullable());
}

const dedupe = <T>(list: readonly T[]) => [...new Set(list)];

const idList = (invalid: string, max: number, tooMany: string) =>
  z
    .array(z.string({ error: invalid }).trim().min(1, invalid).max(100, invalid), { error: invalid })
    .max(max * 2, tooMany)
    .transform(dedupe)
    .refine((v) => v.length <= max, tooMany);

const channels = (level: LevelKey) =>
  z
    .array(z.enum(ESCALATION_CHANNELS, { error: ESCALATION_MSG.channelsInvalid }), { error: ESCALATION_MSG.channelsInvalid })
    .max(10, ESCALATION_MSG.channelsInvalid)
    .transform(dedupe)
    .prefault([...ESCALATION_DEFAULTS.notificationChannels[level]]);

const userIds = idList(ESCALATION_MSG.userIdsInvalid, ESCALATION_LIMITS.usersPerLevel, ESCALATION_MSG.tooManyUsers);
const scheduleIds = idList(ESCALATION_MSG.scheduleIdsInvalid, ESCALATION_LIMITS.schedulesPerLevel, ESCALATION_MSG.tooManySchedules).prefault([]);

const notify = z.enum(ESCALATION_NOTIFY, { error: ESCALATION_MSG.notifyInvalid }).default('primary');

/**
 * Issue 29: destinations (of the tenant) a level posts to when it fires, besides paging people. None is left out of
 * the stored level (as before issue 29).
 */
const destinationIds = idList('Destinations must be a list of destination ids', 20, 'A level can post to at most 20 destinations')
  .optional()
  .transform((v) => (v?.length ? v : undefined));

/**
 * Level 1 pages users, schedules or both (issue 27: a level of schedules only pages whoever is on call); with
 * neither, the spec's text, on its users field. Checked on the raw level too, so it is reported beside other errors.
 */
const level1HasTarget = (v: unknown) => {
  if (!v || typeof v !== 'object') return true;
  const { userIds, scheduleIds } = v as { userIds?: unknown; scheduleIds?: unknown };
  const some = (list: unknown) => Array.isArray(list) && list.some((id) => typeof id !== 'string' || id.trim() !== '');
  return some(userIds) || some(scheduleIds);
};

const Level1Input = z
  .object(
    {
      userIds: z.array(z.unknown(), { error: ESCALATION_MSG.userIdsInvalid }).pipe(userIds).prefault([]),
      scheduleIds,
      notify,
      notificationChannels: channels('level_1'),
      destinationIds,
    },
    { error: ESCALATION_MSG.levelInvalid },
  )
  .superRefine(
    (v, ctx) => {
      if (!level1HasTarget(v)) ctx.addIssue({ code: 'custom', message: MSG.level1UserRequired, path: ['userIds'] });
    },
    { when: () => true },
  )
  .prefault({});

const laterLevelInput = (level: 'level_2' | 'level_3') =>
  z
    .object(
      {
        userIds: userIds.prefault([]),
        scheduleIds,
        notify,
        timeAfterPrevious: minutes(ESCALATION_DEFAULTS.timeAfterPrevious[level], ESCALATION_DEFAULTS.timeAfterPrevious[level]),
        notificationChannels: channels(level),
        destinationIds,
      },
      { error: ESCALATION_MSG.levelInvalid },
    )
    .prefault({});

const d = ESCALATION_DEFAULTS.escalationTimes;
const EscalationTimesInput = z
  .object(
    {
      critical: minutes(0, d.critical as number),
      high: minutes(0, d.high as number),
      medium: minutes(0, d.medium as number),
      low: minutes(0, d.low as number),
      info: minutes(null, d.info),
    },
    { error: ESCALATION_MSG.timesInvalid },
  )
  .prefault({});

/**
 * Body of create and update: every field of the Escalation policy entity a person edits (spec section 3), plus
 * per level the on-call schedules whose people on call are paged and whether their secondary is (`notify`). Whatever is left out takes the defaults of
 * spec section 9; id, tenantId and the times are the server's and are stripped.
 */
export const EscalationPolicyInput = z.object({
  name: requiredString(MSG.policyNameRequired, ESCALATION_LIMITS.name),
  description: z
    .string({ error: 'Must be text' })
    .trim()
    .max(ESCALATION_LIMITS.description, `Must be at most ${ESCALATION_LIMITS.description} characters`)
    .nullish()
    .transform((v) => v || null),
  isDefault: z.boolean({ error: ESCALATION_MSG.isDefaultInvalid }).default(false),
  escalationTimes: EscalationTimesInput,
  level_1: Level1Input,
  level_2: laterLevelInput('level_2'),
  level_3: laterLevelInput('level_3'),
});
/** What a form sends. */
export type EscalationPolicyInputBody = z.input<typeof EscalationPolicyInput>;
export type EscalationPolicyInput = z.output<typeof EscalationPolicyInput>;

const Level1 = z.object({
  userIds: z.array(z.string()),
  scheduleIds: z.array(z.string()),
  /** On its schedules: the person on call only, or the secondary too. */
  notify: z.enum(ESCALATION_NOTIFY),
  notificationChannels: z.array(z.enum(ESCALATION_CHANNELS)),
  /** Issue 29: destinations posted to when the level fires (stored before it: none). */
  destinationIds: z.array(z.string()).optional(),
});
const LaterLevel = Level1.extend({ timeAfterPrevious: z.number() });
export type Level1 = z.infer<typeof Level1>;
export type LaterLevel = z.infer<typeof LaterLevel>;

export const EscalationTimes = z.object({ critical: z.number(), high: z.number(), medium: z.number(), low: z.number(), info: z.number().nullable() });
export type EscalationTimes = z.infer<typeof EscalationTimes>;

export const EscalationPolicy = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isDefault: z.boolean(),
    /** Minutes per priority until an unacknowledged alert is overdue; 0 or null: no target, nobody is paged. */
    escalationTimes: EscalationTimes,
    level_1: Level1,
    level_2: LaterLevel,
    level_3: LaterLevel,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'EscalationPolicy' });
export type EscalationPolicy = z.infer<typeof EscalationPolicy>;

export const EscalationPolicyList = z.object({ items: z.array(EscalationPolicy) });
export type EscalationPolicyList = z.infer<typeof EscalationPolicyList>;

/** The tenant's default policy (the spec's "query default"), or null when it has none. */
export const DefaultEscalationPolicy = z.object({ policy: EscalationPolicy.nullable() }).meta({ id: 'DefaultEscalationPolicy' });
export type DefaultEscalationPolicy = z.infer<typeof DefaultEscalationPolicy>;

export const EscalationPolicyParams = TenantParam.extend({ policyId: z.string().min(1).max(100) });

/**
 * The optional policy reference of an integration or a client: a policy id of the same tenant, or none (empty and
 * null mean none).
 */
export const escalationPolicyRef = z
  .string({ error: ESCALATION_MSG.policyNotFound })
  .trim()
  .max(100, ESCALATION_MSG.policyNotFound)
  .nullish()
  .transform((v) => v || null);

/** True when a priority's time means "no target": null (info by default) or the 0 an invalid input became. */
export const noTarget = (minutesValue: number | null) => !minutesValue;

