import { z } from 'zod';
import { APPROVAL_STATUSES, ApprovalAbilities, Person } from './approvals.ts';
import { requiredString, TenantParam } from './common.ts';
import { isIsoTime, SCHEDULE_LIMITS } from './schedules.ts';

/**
 * Shift swaps and "take the pager" (issue 27). A swap is an approval request of type shift_swap whose first approver
 * is the person asked; on final approval an override puts them in the requester's place. "Take the pager now" is an
 * override from now for a few hours, the person replaced told.
 */
export const SHIFT_SWAP_LIMITS = { note: 200, maxPagerHours: 72, listed: 50 } as const;

export const SHIFT_SWAP_MSG = {
  scheduleRequired: 'Choose a schedule',
  takerRequired: 'Choose who takes the shift',
  takerSelf: 'Choose someone other than yourself',
  takerNotMember: 'This person is not a member of this organization',
  startInvalid: 'Enter a valid start time',
  endInvalid: 'Enter a valid end time',
  endAfterStart: 'The end must be after the start',
  tooLong: `A swap can cover at most ${SCHEDULE_LIMITS.overrideDays} days`,
  over: 'This time is already over',
  notYourShift: 'You are not on call on this schedule for all of this time',
  overlapping: 'You already asked someone to take part of this time; cancel that request first',
  takerOnCall: 'This person is already on call on this schedule during this time',
  noActivePolicy: 'Shift swaps are turned off: the shift swap approval policy is inactive',
  defaultPolicyName: 'Shift swaps',
  defaultPolicyDescription: 'The person asked to take a shift decides. Add levels for an owner or admin to confirm swaps after them.',
  swapFirstLevel: 'For shift swaps, the first level is decided by the person asked to take the shift; the approvers chosen here only decide the levels after it.',
  requested: (name: string) => `Request sent to ${name}`,
  requestFailed: 'Failed to send the request. Please try again.',
  loadFailed: 'Failed to load shift swaps. Please try again.',
  decideFailed: 'Failed to save your answer. Please try again.',
  accepted: 'You took the shift',
  declined: 'Request declined',
  cancelled: 'Request cancelled',
  noSwaps: 'No pending shift swaps',
  declineReason: 'Declined',
  // Take the pager.
  hoursInvalid: `Hours must be a whole number from 1 to ${SHIFT_SWAP_LIMITS.maxPagerHours}`,
  alreadyOnCall: 'You are already on call on this schedule',
  nobodyOnCall: 'Nobody is on call on this schedule in this time, so there is no pager to take',
  participantsOnly: 'Only participants of this schedule can take its pager',
  pagerTaken: (name: string) => `You have the pager of ${name}`,
  takeFailed: 'Failed to take the pager. Please try again.',
  settingSaved: 'Setting saved',
  settingFailed: 'Failed to save the setting. Please try again.',
  settingForbidden: 'Only owners and admins can change who may take the pager',
} as const;

const isoTime = (message: string) => z.string({ error: message }).trim().refine(isIsoTime, message);
const note = z
  .string({ error: 'Must be text' })
  .trim()
  .max(SHIFT_SWAP_LIMITS.note, `Must be at most ${SHIFT_SWAP_LIMITS.note} characters`)
  .nullish()
  .transform((v) => v || null);

/** Body of a swap request: the caller asks `takerId` to take their place on a schedule for [startsAt, endsAt). */
export const ShiftSwapInput = z
  .object({
    scheduleId: requiredString(SHIFT_SWAP_MSG.scheduleRequired, 100),
    takerId: requiredString(SHIFT_SWAP_MSG.takerRequired, 100),
    startsAt: isoTime(SHIFT_SWAP_MSG.startInvalid),
    endsAt: isoTime(SHIFT_SWAP_MSG.endInvalid),
    note,
  })
  .superRefine(
    (v, ctx) => {
      if (!v || typeof v !== 'object') return;
      const { startsAt, endsAt } = v as Record<string, unknown>;
      if (typeof startsAt === 'string' && typeof endsAt === 'string' && isIsoTime(startsAt.trim()) && isIsoTime(endsAt.trim())) {
        const ms = Date.parse(endsAt) - Date.parse(startsAt);
        if (ms <= 0) ctx.addIssue({ code: 'custom', message: SHIFT_SWAP_MSG.endAfterStart, path: ['endsAt'] });
        else if (ms > SCHEDULE_LIMITS.overrideDays * 86_400_000) ctx.addIssue({ code: 'custom', message: SHIFT_SWAP_MSG.tooLong, path: ['endsAt'] });
      }
    },
    { when: () => true },
  )
  .transform((v) => ({ ...v, startsAt: new Date(v.startsAt).toISOString(), endsAt: new Date(v.endsAt).toISOString() }));
export type ShiftSwapInputBody = z.input<typeof ShiftSwapInput>;
export type ShiftSwapInput = z.output<typeof ShiftSwapInput>;

/** A swap as both sides see it; decisions go through the approval request (`requestId`). */
export const ShiftSwap = z
  .object({
    requestId: z.string(),
    scheduleId: z.string(),
    scheduleName: z.string(),
    role: z.enum(['primary', 'secondary']),
    requester: Person,
    taker: Person,
    startsAt: z.string(),
    endsAt: z.string(),
    note: z.string().nullable(),
    status: z.enum(APPROVAL_STATUSES),
    /** The request's current level (0: the person asked decides). */
    currentLevel: z.number().int(),
    levels: z.number().int(),
    expiresAt: z.string().nullable(),
    /** The override made on final approval. */
    overrideId: z.string().nullable(),
    can: ApprovalAbilities,
    createdAt: z.string(),
  })
  .meta({ id: 'ShiftSwap' });
export type ShiftSwap = z.infer<typeof ShiftSwap>;
export const ShiftSwapList = z.object({ items: z.array(ShiftSwap) });
export type ShiftSwapList = z.infer<typeof ShiftSwapList>;

const hoursMsg = SHIFT_SWAP_MSG.hoursInvalid;
/** "Take the pager now": from now for `hours` hours. */
export const TakePagerInput = z.object({
  hours: z.coerce.number({ error: hoursMsg }).int(hoursMsg).min(1, hoursMsg).max(SHIFT_SWAP_LIMITS.maxPagerHours, hoursMsg),
  note,
});
export type TakePagerInputBody = z.input<typeof TakePagerInput>;
export const TakePagerParams = TenantParam.extend({ id: z.string().min(1).max(100) });

export const PagerOverride = z.object({ id: z.string(), replacedUserId: z.string(), userId: z.string(), startsAt: z.string(), endsAt: z.string() });
export const TakePagerResult = z.object({ scheduleId: z.string(), overrides: z.array(PagerOverride) });
export type TakePagerResult = z.infer<typeof TakePagerResult>;

/** Each schedule as "Take the pager now" offers it to the caller. */
export const PagerOption = z.object({
  scheduleId: z.string(),
  scheduleName: z.string(),
  participantsOnly: z.boolean(),
  primary: z.string().nullable(),
  /** Whether the caller may take it now, and if not, why. */
  mayTake: z.boolean(),
  reason: z.string().nullable(),
});
export type PagerOption = z.infer<typeof PagerOption>;
export const PagerOptions = z.object({ items: z.array(PagerOption), canManage: z.boolean() });
export type PagerOptions = z.infer<typeof PagerOptions>;

export const PagerSettingInput = z.object({ participantsOnly: z.boolean({ error: 'Must be true or false' }) });
export const PagerSetting = z.object({ scheduleId: z.string(), participantsOnly: z.boolean() });
