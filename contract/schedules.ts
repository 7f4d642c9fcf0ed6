import { z } from 'zod';
import { requiredString, TenantParam } from './common.ts';
import { MSG } from './messages.ts';
import { isIsoTime, LAYER_LIMITS, LAYER_MSG, LayerInput, LayerOut, TimelineRow } from './schedule-layers.ts';

// Layers and the timeline's rows live in schedule-layers.ts; importers of this file keep finding them here.
export * from './schedule-layers.ts';

/** Weekdays as the spec keys rotations: 0 (Sunday) to 6 (Saturday). */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const WEEKDAY_KEYS = ['0', '1', '2', '3', '4', '5', '6'] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];

export const SCHEDULE_LIMITS = { name: 100, description: 1000, shiftsPerDay: 24, overrideNote: 200, overrideDays: 90, timelineDays: 14, feedDays: 90, ...LAYER_LIMITS } as const;

/** Spec section 9: a new shift starts at the previous one's end and lasts 8 hours, capped at 24. */
export const NEW_SHIFT_HOURS = 8;

/** The spec's {day} texts of section 5, filled in. */
export const noShiftsDefined = (day: string) => MSG.noShiftsDefined.replace('{day}', day);
export const primaryRequired = (day: string) => MSG.primaryOnCallRequired.replace('{day}', day);

/** Texts of our own for schedules (the spec is silent), kept here so server and form say the same thing. */
export const SCHEDULE_MSG = {
  // Section 8 gives the policy texts "and the same wording for schedules": these are that wording, not quoted there.
  createFailed: 'Failed to create schedule. Please try again.',
  updateFailed: 'Failed to update schedule. Please try again.',
  deleteFailed: 'Failed to delete schedule. Please try again.',
  notFound: 'Schedule not found',
  overrideNotFound: 'Override not found',
  hoursInvalid: 'Shift hours must be whole numbers from 0 to 24',
  shiftEndsBeforeStart: (day: string) => `Each shift on ${day} must end after it starts`,
  shiftsOverlap: (day: string) => `Shifts overlap on ${day}`,
  tooManyShifts: `A day can have at most ${SCHEDULE_LIMITS.shiftsPerDay} shifts`,
  personInvalid: 'Choose a member of this organization',
  notAMember: 'This person is not a member of this organization',
  rotationsInvalid: 'Rotations must list the shifts of each weekday 0 (Sunday) to 6 (Saturday)',
  timeZoneInvalid: 'Choose a valid time zone',
  tooLong: (max: number) => `Must be at most ${max} characters`,
  manageForbidden: 'Only owners and admins can change on-call schedules',
  overrideForbidden: 'Only owners, admins and the person being replaced can add this override',
  overrideDeleteForbidden: 'Only owners, admins, the person replaced and whoever added it can remove this override',
  overrideReplacedRequired: 'Choose the person being replaced',
  overrideUserRequired: 'Choose who takes over',
  overrideSamePerson: 'Choose someone other than the person being replaced',
  overrideStartInvalid: 'Enter a valid start time',
  overrideEndInvalid: 'Enter a valid end time',
  overrideEndAfterStart: 'The override must end after it starts',
  overrideTooLong: `An override can last at most ${SCHEDULE_LIMITS.overrideDays} days`,
  atInvalid: 'at must be an ISO-8601 time',
  deleteConfirm: (name: string) => `Are you sure you want to delete the schedule ${name}? This action cannot be undone.`,
  deleteDefaultWarning: 'This is the default schedule. After deleting it the organization has no default schedule until you mark another one.',
  overrideDeleteConfirm: 'Remove this override? The rotation applies again for its time range.',
  unknownPeopleWarning: 'Some shifts name people who are no longer members of this organization. Edit the schedule to choose someone else.',
  created: 'Schedule created',
  updated: 'Schedule updated',
  deleted: 'Schedule deleted',
  overrideCreated: 'Override added',
  overrideDeleted: 'Override removed',
  overrideCreateFailed: 'Failed to add override. Please try again.',
  overrideDeleteFailed: 'Failed to remove override. Please try again.',
  nobodyOnCall: 'No one on call',
  outsidePeriod: 'Not active now (outside the schedule’s dates)',
  noUpcomingShifts: 'You have no on-call shifts in the next 90 days.',
  feedCreateFailed: 'Failed to create the calendar link. Please try again.',
  feedRevokeFailed: 'Failed to revoke the calendar link. Please try again.',
  feedRevoked: 'Calendar link revoked',
  myOnCallLoadFailed: 'Failed to load your on-call shifts. Please try again.',
  ...LAYER_MSG,
  noEnd: 'No end',
  noEndHelp: 'The schedule runs on until you set an end date.',
} as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar date written YYYY-MM-DD. */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** An IANA time zone name the runtime knows (Intl, so the same answer on server and browser). */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(tz) || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const hour = z.number({ error: SCHEDULE_MSG.hoursInvalid }).int(SCHEDULE_MSG.hoursInvalid).min(0, SCHEDULE_MSG.hoursInvalid).max(24, SCHEDULE_MSG.hoursInvalid);
/** A user id or nothing (empty means none). */
const personRef = z
  .string({ error: SCHEDULE_MSG.personInvalid })
  .trim()
  .max(100, SCHEDULE_MSG.personInvalid)
  .nullish()
  .transform((v) => v || null);

export const ShiftInput = z.object({ startHour: hour, endHour: hour, primaryOnCall: personRef, secondaryOnCall: personRef });

export const Shift = z.object({ startHour: z.number().int(), endHour: z.number().int(), primaryOnCall: z.string(), secondaryOnCall: z.string().nullable() });
export type Shift = z.infer<typeof Shift>;
export type Rotations = Record<WeekdayKey, Shift[]>;

const RotationsInput = z.object(
  Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, z.array(ShiftInput, { error: SCHEDULE_MSG.rotationsInvalid }).max(SCHEDULE_LIMITS.shiftsPerDay, SCHEDULE_MSG.tooManyShifts).optional()])) as Record<
    WeekdayKey,
    z.ZodOptional<z.ZodArray<typeof ShiftInput>>
  >,
  { error: SCHEDULE_MSG.rotationsInvalid },
);

const calendarDate = z.string({ error: MSG.invalidDateFormat }).trim().refine(isCalendarDate, MSG.invalidDateFormat);

type LooseShift = { startHour?: unknown; endHour?: unknown; primaryOnCall?: unknown };

/**
 * Body of create and update. Spec section 5's checks come in its order (name, date format, end after start, a shift
 * on every weekday, a primary on every shift); then ours (hours in order, no overlaps). Dates are calendar dates in
 * the schedule's time zone; coverage runs from 00:00 of the start date through 24:00 of the end date, or on for good
 * when the end date is null.
 */
export const ScheduleInput = z
  .object({
    name: requiredString(MSG.scheduleNameRequired, SCHEDULE_LIMITS.name),
    description: z
      .string({ error: 'Must be text' })
      .trim()
      .max(SCHEDULE_LIMITS.description, SCHEDULE_MSG.tooLong(SCHEDULE_LIMITS.description))
      .nullish()
      .transform((v) => v || null),
    startTime: calendarDate,
    /** null: no end (issue 27); left out, it is missing like any date. */
    endTime: calendarDate.nullable(),
    timeZone: z.string({ error: SCHEDULE_MSG.timeZoneInvalid }).trim().refine(isTimeZone, SCHEDULE_MSG.timeZoneInvalid).default('UTC'),
    isDefault: z.boolean({ error: 'Must be true or false' }).default(false),
    rotations: RotationsInput.default({}),
    layers: z.array(LayerInput, { error: 'Layers must be a list' }).max(SCHEDULE_LIMITS.layers, SCHEDULE_MSG.tooManyLayers).default([]),
  })
  .superRefine(
    (v, ctx) => {
      // Runs even when a field above failed (when: …), so every failing field is reported; the input may be raw here.
      if (!v || typeof v !== 'object') return;
      const { startTime, endTime } = v as { startTime?: unknown; endTime?: unknown };
      if (typeof startTime === 'string' && typeof endTime === 'string' && isCalendarDate(startTime.trim()) && isCalendarDate(endTime.trim()) && endTime.trim() <= startTime.trim()) {
        ctx.addIssue({ code: 'custom', message: MSG.endAfterStart, path: ['endTime'] });
      }
      const rotations = (v as { rotations?: unknown }).rotations;
      if (rotations !== undefined && (typeof rotations !== 'object' || rotations === null || Array.isArray(rotations))) return;
      const days = (rotations ?? {}) as Record<string, unknown>;
      // With rotation layers, the weekday template is optional: days without shifts are left to the layers.
      const layers = (v as { layers?: unknown }).layers;
      const layered = Array.isArray(layers) && layers.length > 0;
      WEEKDAY_KEYS.forEach((key, i) => {
        const day = WEEKDAYS[i];
        const shifts = days[key];
        if (shifts === undefined || (Array.isArray(shifts) && shifts.length === 0)) {
          if (!layered) ctx.addIssue({ code: 'custom', message: noShiftsDefined(day), path: ['rotations', key] });
          return;
        }
        if (!Array.isArray(shifts)) return;
        const list = shifts as LooseShift[];
        list.forEach((s, j) => {
          if (s && typeof s === 'object' && (s.primaryOnCall === undefined || s.primaryOnCall === null || (typeof s.primaryOnCall === 'string' && !s.primaryOnCall.trim()))) {
            ctx.addIssue({ code: 'custom', message: primaryRequired(day), path: ['rotations', key, j, 'primaryOnCall'] });
          }
        });
        const ranges = list
          .map((s, j) => ({ j, start: s?.startHour, end: s?.endHour }))
          .filter((r): r is { j: number; start: number; end: number } => Number.isInteger(r.start) && Number.isInteger(r.end));
        for (const r of ranges) {
          if (r.end <= r.start) ctx.addIssue({ code: 'custom', message: SCHEDULE_MSG.shiftEndsBeforeStart(day), path: ['rotations', key, r.j, 'endHour'] });
        }
        const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
        for (let k = 1; k < sorted.length; k++) {
          if (sorted[k].start < sorted[k - 1].end) {
            ctx.addIssue({ code: 'custom', message: SCHEDULE_MSG.shiftsOverlap(day), path: ['rotations', key, sorted[k].j, 'startHour'] });
            break;
          }
        }
      });
    },
    { when: () => true },
  )
  .transform((v) => ({
    ...v,
    rotations: Object.fromEntries(
      WEEKDAY_KEYS.map((k) => [
        k,
        [...(v.rotations[k] ?? [])]
          .sort((a, b) => a.startHour - b.startHour)
          .map((s) => ({ startHour: s.startHour, endHour: s.endHour, primaryOnCall: s.primaryOnCall!, secondaryOnCall: s.secondaryOnCall })),
      ]),
    ) as Rotations,
  }));
export type ScheduleInputBody = z.input<typeof ScheduleInput>;
export type ScheduleInput = z.output<typeof ScheduleInput>;

export const Schedule = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isDefault: z.boolean(),
    /** First day of coverage, YYYY-MM-DD in timeZone. */
    startTime: z.string(),
    /** Last day of coverage (inclusive), YYYY-MM-DD in timeZone; null: no end. */
    endTime: z.string().nullable(),
    /** IANA zone; shift hours are wall-clock hours there. */
    timeZone: z.string(),
    rotations: z.object(Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, z.array(Shift)])) as Record<WeekdayKey, z.ZodArray<typeof Shift>>),
    /** Rotation layers, lowest first: a higher layer's person is on call where it has one; the template lies beneath. */
    layers: z.array(LayerOut),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'OnCallSchedule' });
export type Schedule = z.infer<typeof Schedule>;

export const ScheduleList = z.object({ items: z.array(Schedule) });
export type ScheduleList = z.infer<typeof ScheduleList>;

export const ScheduleParams = TenantParam.extend({ id: z.string().min(1).max(100) });
export const OverrideParams = ScheduleParams.extend({ overrideId: z.string().min(1).max(100) });

const isoTime = (message: string) => z.string({ error: message }).trim().refine(isIsoTime, message);

export const OnCallQuery = z.object({ at: isoTime(SCHEDULE_MSG.atInvalid).optional() });

/** Who is on call at one moment of one schedule, and who takes over next. */
export const OnCallNow = z
  .object({
    scheduleId: z.string(),
    scheduleName: z.string(),
    isDefault: z.boolean(),
    at: z.string(),
    primary: z.string().nullable(),
    secondary: z.string().nullable(),
    /** When the current shift (or override) ends and someone else may take over; null when nobody is on call. */
    shiftEndsAt: z.string().nullable(),
    /** The next change of people within the next 8 days: when, and who then. */
    next: z.object({ at: z.string(), primary: z.string().nullable(), secondary: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'OnCallNow' });
export type OnCallNow = z.infer<typeof OnCallNow>;
export const OnCallList = z.object({ at: z.string(), items: z.array(OnCallNow) });
export type OnCallList = z.infer<typeof OnCallList>;

export const OverrideInput = z
  .object({
    replacedUserId: z.string({ error: SCHEDULE_MSG.overrideReplacedRequired }).trim().min(1, SCHEDULE_MSG.overrideReplacedRequired).max(100, SCHEDULE_MSG.personInvalid),
    userId: z.string({ error: SCHEDULE_MSG.overrideUserRequired }).trim().min(1, SCHEDULE_MSG.overrideUserRequired).max(100, SCHEDULE_MSG.personInvalid),
    startsAt: isoTime(SCHEDULE_MSG.overrideStartInvalid),
    endsAt: isoTime(SCHEDULE_MSG.overrideEndInvalid),
    note: z
      .string({ error: 'Must be text' })
      .trim()
      .max(SCHEDULE_LIMITS.overrideNote, SCHEDULE_MSG.tooLong(SCHEDULE_LIMITS.overrideNote))
      .nullish()
      .transform((v) => v || null),
  })
  .superRefine(
    (v, ctx) => {
      if (!v || typeof v !== 'object') return;
      const { replacedUserId, userId, startsAt, endsAt } = v as Record<string, unknown>;
      if (typeof replacedUserId === 'string' && typeof userId === 'string' && replacedUserId.trim() && replacedUserId.trim() === userId.trim()) {
        ctx.addIssue({ code: 'custom', message: SCHEDULE_MSG.overrideSamePerson, path: ['userId'] });
      }
      if (typeof startsAt === 'string' && typeof endsAt === 'string' && isIsoTime(startsAt.trim()) && isIsoTime(endsAt.trim())) {
        const ms = Date.parse(endsAt) - Date.parse(startsAt);
        if (ms <= 0) ctx.addIssue({ code: 'custom', message: SCHEDULE_MSG.overrideEndAfterStart, path: ['endsAt'] });
        else if (ms > SCHEDULE_LIMITS.overrideDays * 86_400_000) ctx.addIssue({ code: 'custom', message: SCHEDULE_MSG.overrideTooLong, path: ['endsAt'] });
      }
    },
    { when: () => true },
  )
  .transform((v) => ({ ...v, startsAt: new Date(v.startsAt).toISOString(), endsAt: new Date(v.endsAt).toISOString() }));
export type OverrideInputBody = z.input<typeof OverrideInput>;
export type OverrideInput = z.output<typeof OverrideInput>;

export const Override = z
  .object({
    id: z.string(),
    scheduleId: z.string(),
    replacedUserId: z.string(),
    userId: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    note: z.string().nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'OnCallOverride' });
export type Override = z.infer<typeof Override>;
export const OverrideList = z.object({ items: z.array(Override) });
export type OverrideList = z.infer<typeof OverrideList>;

export const TimelineQuery = z.object({ from: isoTime(SCHEDULE_MSG.atInvalid).optional() });

/** One stretch of a schedule's timeline with the same people on call. */
export const TimelineSegment = z.object({
  start: z.string(),
  end: z.string(),
  primary: z.string(),
  secondary: z.string().nullable(),
  /** Set when an override put this person there instead of the rotation's. */
  primaryOverride: z.boolean(),
  secondaryOverride: z.boolean(),
});
export type TimelineSegment = z.infer<typeof TimelineSegment>;
export const CoverageGap = z.object({ start: z.string(), end: z.string(), label: z.string() });
export type CoverageGap = z.infer<typeof CoverageGap>;
export const Timeline = z
  .object({
    scheduleId: z.string(),
    timeZone: z.string(),
    from: z.string(),
    to: z.string(),
    /** The local days of the schedule's zone the timeline spans (23 or 25 hours long on the nights clocks change). */
    days: z.array(z.object({ date: z.string(), label: z.string(), start: z.string(), end: z.string() })),
    /** The final schedule (layers, template and overrides together): who is on call, and where nobody is. */
    segments: z.array(TimelineSegment),
    gaps: z.array(CoverageGap),
    /** What the final schedule is made of, one row each: the layers (highest first), the weekday template, the overrides. */
    rows: z.array(TimelineRow),
  })
  .meta({ id: 'OnCallTimeline' });
export type Timeline = z.infer<typeof Timeline>;

/** A member who can be put on call (every member of the tenant reads these, unlike Tenant Administration's list). */
export const OnCallMember = z.object({ userId: z.string(), displayName: z.string(), email: z.string() });
export type OnCallMember = z.infer<typeof OnCallMember>;
export const OnCallMemberList = z.object({ items: z.array(OnCallMember) });

/** One of my upcoming stretches on call. */
export const MyShift = z.object({
  scheduleId: z.string(),
  scheduleName: z.string(),
  role: z.enum(['primary', 'secondary']),
  start: z.string(),
  end: z.string(),
  /** True when I am there through an override (covering for someone). */
  override: z.boolean(),
});
export type MyShift = z.infer<typeof MyShift>;
export const MyOnCall = z
  .object({
    shifts: z.array(MyShift),
    /** The personal calendar feed: only whether one is active (its secret URL is shown once, when made). */
    feed: z.object({ createdAt: z.string() }).nullable(),
  })
  .meta({ id: 'MyOnCall' });
export type MyOnCall = z.infer<typeof MyOnCall>;
export const CalendarFeedCreated = z.object({ url: z.string(), createdAt: z.string() });
export type CalendarFeedCreated = z.infer<typeof CalendarFeedCreated>;
export const CalendarFeedParams = z.object({ file: z.string().min(1).max(200) });

/** Spec section 9: the default shift of a day, 0 to 24. */
export const fullDayShift = () => ({ startHour: 0, endHour: 24 });

type Hours = { startHour: number; endHour: number };

/**
 * A day's shifts with one more (spec section 9): it starts at the previous shift's end and lasts 8 hours, capped at
 * 24. When the previous shift already ends at midnight, the rule would give an empty 24–24 shift: the previous shift
 * then ends earlier to make room for the new one's 8 hours (keeping at least one hour of its own).
 */
export function withNewShift<T extends Hours>(shifts: T[], make: (hours: Hours) => T): T[] {
  const last = shifts[shifts.length - 1];
  if (!last) return [make(fullDayShift())];
  if (last.endHour < 24) return [...shifts, make({ startHour: last.endHour, endHour: Math.min(24, last.endHour + NEW_SHIFT_HOURS) })];
  const start = Math.max(last.startHour + 1, 24 - NEW_SHIFT_HOURS);
  if (start >= 24) return shifts;
  return [...shifts.slice(0, -1), { ...last, endHour: start }, make({ startHour: start, endHour: 24 })];
}

/** A day's shifts without one (spec section 5): the last shift of a day cannot go, a full-day shift is restored. */
export function withoutShift<T extends Hours>(shifts: T[], index: number, make: (hours: Hours) => T): T[] {
  return shifts.length <= 1 ? [make(fullDayShift())] : shifts.filter((_, i) => i !== index);
}

/** A shift's hours in 12-hour format, as the spec's cards show them: 0 → 12 AM, 13 → 1 PM, 24 → 12 AM. */
export function formatHour(h: number): string {
  const hh = h % 12 === 0 ? 12 : h % 12;
  return `${hh} ${h % 24 < 12 ? 'AM' : 'PM'}`;
}

/**
 * The hours of the weekly rotation nobody covers, merged across midnight and around the week, as
 * "No one on call Sat 12 AM – 8 AM" (the shift hours of the schedule's own zone).
 */
export function weeklyGaps(rotations: Partial<Record<WeekdayKey, Array<Pick<Shift, 'startHour' | 'endHour'>>>>): string[] {
  const covered = new Array<boolean>(7 * 24).fill(false);
  WEEKDAY_KEYS.forEach((k, d) => {
    for (const s of rotations[k] ?? []) for (let h = Math.max(0, s.startHour); h < Math.min(24, s.endHour); h++) covered[d * 24 + h] = true;
  });
  if (covered.every((c) => !c)) return covered.length ? ['No one on call at any time'] : [];
  if (covered.every(Boolean)) return [];
  // Start scanning just after a covered hour so a gap wrapping around the week is one stretch.
  const first = covered.findIndex((c, i) => c && !covered[(i + 1) % covered.length]);
  const out: string[] = [];
  const n = covered.length;
  let i = (first + 1) % n;
  for (let step = 0; step < n; ) {
    if (covered[i]) {
      i = (i + 1) % n;
      step++;
      continue;
    }
    const start = i;
    let len = 0;
    while (!covered[i] && len < n) {
      i = (i + 1) % n;
      len++;
      step++;
    }
    const end = (start + len) % n;
    const day = (x: number) => WEEKDAYS[Math.floor(x / 24)].slice(0, 3);
    const sameDay = len <= 24 && Math.floor(start / 24) === Math.floor((start + len - 1) / 24) && end % 24 !== 0;
    const endLabel = sameDay ? formatHour(end % 24) : `${day(end)} ${formatHour(end % 24)}`;
    out.push(`${SCHEDULE_MSG.nobodyOnCall} ${day(start)} ${formatHour(start % 24)} – ${endLabel}`);
  }
  return out;
}
