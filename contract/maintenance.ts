import { z } from 'zod';
import { listOf } from './common.ts';
import type { SNOOZE_MINUTES } from './alerts.ts';
import { isIsoTime, isTimeZone } from './schedules.ts';

/**
 * Maintenance windows (issue 31): planned quiet times of a tenant, or of some of its clients or integrations. An alert
 * that opens inside one is stored, shown with a "Maintenance" badge and counted, and pages nobody; when the window ends,
 * the alerts it held that are still open and unacknowledged start their escalation from level 1.
 */
export const MAINTENANCE_KINDS = ['one_off', 'weekly'] as const;
export type MaintenanceKind = (typeof MAINTENANCE_KINDS)[number];

export const MAINTENANCE_STATES = ['active', 'scheduled', 'ended'] as const;
export type MaintenanceState = (typeof MAINTENANCE_STATES)[number];
export const MAINTENANCE_STATE_LABELS: Record<MaintenanceState, string> = { active: 'Active', scheduled: 'Scheduled', ended: 'Ended' };

/** Weekdays as the recurrence numbers them: 0 = Sunday … 6 = Saturday (JavaScript's `getDay`). */
export const WEEKDAY_LABELS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export const MAINTENANCE_LIMITS = {
  perTenant: 500,
  nameMax: 200,
  scopeMax: 200,
} as const;

export const MAINTENANCE_MSG = {
  nameRequired: 'Window name is required',
  nameTooLong: `A window name must be at most ${MAINTENANCE_LIMITS.nameMax} characters`,
  startRequired: 'Start is required',
  endRequired: 'End is required',
  timeInvalid: 'Enter a date and time with its offset, e.g. 2026-03-08T22:00:00Z',
  endBeforeStart: 'End must be after start',
  untilBeforeStart: 'The last day must be after the start',
  daysRequired: 'Choose at least one day',
  dayInvalid: 'Days are numbers from 0 (Sunday) to 6 (Saturday)',
  hhmmInvalid: 'Enter a time as HH:mm, e.g. 22:00',
  sameFromTo: 'From and to must differ',
  timeZoneInvalid: 'Choose a valid time zone',
  oneOffOrWeekly: 'Give either start and end (one window) or a weekly recurrence, not both',
  unknownClient: 'Client not found',
  unknownIntegration: 'Integration not found',
  tooManyIds: `At most ${MAINTENANCE_LIMITS.scopeMax} entries`,
  notFound: 'Maintenance window not found',
  tooMany: `An organization may have at most ${MAINTENANCE_LIMITS.perTenant} maintenance windows`,
  alreadyEnded: 'This window has already ended',
  none: 'No maintenance windows yet. Plan one for patch nights and other planned work: alerts that open inside it page nobody.',
  loadFailed: 'Failed to load maintenance windows. Please try again.',
  deleteConfirm: 'Delete this maintenance window? Alerts it is holding start their escalation now.',
  endConfirm: 'End this window now? Alerts it is holding start their escalation now.',
  formHint: 'Alerts that open inside the window are stored and page nobody; when it ends, those still open and unacknowledged start their escalation.',
  activeUntil: (until: string) => `Active until ${until}`,
  nextWindow: (start: string) => `Next: ${start}`,
  clientNone: 'No maintenance window planned for this client.',
  badge: 'Maintenance',
  wholeTenant: 'All clients and integrations',
  bannerOne: (name: string, until: string) => `Maintenance window "${name}" is active until ${until}: alerts in its scope page nobody.`,
  bannerMany: (n: number) => `${n} maintenance windows are active: alerts in their scope page nobody.`,
} as const;

/** What the screens say of snoozes (issue 31; the validation messages are alerts.ts's SNOOZE_MSG). */
export const SNOOZE_LABELS = {
  badge: 'Snoozed',
  until: (when: string) => `Snoozed until ${when}`,
  menu: 'Snooze',
  unsnooze: 'Unsnooze',
  options: { 30: '30 minutes', 60: '1 hour', 240: '4 hours' } as Record<(typeof SNOOZE_MINUTES)[number], string>,
  untilTime: 'Until a time…',
} as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const isoTime = (required: string) => z.string({ error: required }).trim().refine(isIsoTime, MAINTENANCE_MSG.timeInvalid);
const ids = z
  .array(z.string().trim().min(1).max(100))
  .max(MAINTENANCE_LIMITS.scopeMax, MAINTENANCE_MSG.tooManyIds)
  .transform((v) => [...new Set(v)]);

/** Which alerts a window covers: those of these clients or these integrations; both empty, every alert of the tenant. */
export const MaintenanceScope = z.object({ clientIds: ids.default([]), integrationIds: ids.default([]) });
export type MaintenanceScope = z.infer<typeof MaintenanceScope>;

export const WeeklyRecurrence = z.object({
  days: z
    .array(z.number({ error: MAINTENANCE_MSG.dayInvalid }).int(MAINTENANCE_MSG.dayInvalid).min(0, MAINTENANCE_MSG.dayInvalid).max(6, MAINTENANCE_MSG.dayInvalid), { error: MAINTENANCE_MSG.daysRequired })
    .min(1, MAINTENANCE_MSG.daysRequired)
    .max(7, MAINTENANCE_MSG.dayInvalid)
    .transform((d) => [...new Set(d)].sort((a, b) => a - b)),
  from: z.string({ error: MAINTENANCE_MSG.hhmmInvalid }).regex(HHMM, MAINTENANCE_MSG.hhmmInvalid),
  to: z.string({ error: MAINTENANCE_MSG.hhmmInvalid }).regex(HHMM, MAINTENANCE_MSG.hhmmInvalid),
  timeZone: z.string({ error: MAINTENANCE_MSG.timeZoneInvalid }).trim().refine(isTimeZone, MAINTENANCE_MSG.timeZoneInvalid),
});
export type WeeklyRecurrence = z.infer<typeof WeeklyRecurrence>;

/**
 * A window as written (POST, PUT): `{ name, start, end }` for one window, or `{ name, recurrence, until? }` for a
 * weekly one (each occurrence from `from` to `to` on its days, wall clock in its zone; `to` at or before `from` runs
 * into the next day; no occurrence starts at or after `until`).
 */
export const MaintenanceWindowInput = z
  .object({
    name: z.string({ error: MAINTENANCE_MSG.nameRequired }).trim().min(1, MAINTENANCE_MSG.nameRequired).max(MAINTENANCE_LIMITS.nameMax, MAINTENANCE_MSG.nameTooLong),
    start: isoTime(MAINTENANCE_MSG.startRequired).optional(),
    end: isoTime(MAINTENANCE_MSG.endRequired).optional(),
    recurrence: WeeklyRecurrence.optional(),
    until: isoTime(MAINTENANCE_MSG.timeInvalid).nullable().optional(),
    scope: MaintenanceScope.default({ clientIds: [], integrationIds: [] }),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (b.recurrence) {
      if (b.start !== undefined || b.end !== undefined) issue('recurrence', MAINTENANCE_MSG.oneOffOrWeekly);
      if (b.recurrence.from === b.recurrence.to) issue('recurrence', MAINTENANCE_MSG.sameFromTo);
      return;
    }
    if (b.start === undefined) issue('start', MAINTENANCE_MSG.startRequired);
    if (b.end === undefined) issue('end', MAINTENANCE_MSG.endRequired);
    else if (b.start !== undefined && Date.parse(b.end) <= Date.parse(b.start)) issue('end', MAINTENANCE_MSG.endBeforeStart);
  });
export type MaintenanceWindowInput = z.input<typeof MaintenanceWindowInput>;
export type MaintenanceWindowValues = z.output<typeof MaintenanceWindowInput>;

export const MaintenanceWindow = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(MAINTENANCE_KINDS),
    start: z.string().nullable(),
    end: z.string().nullable(),
    recurrence: WeeklyRecurrence.nullable(),
    until: z.string().nullable(),
    scope: z.object({ clientIds: z.array(z.string()), integrationIds: z.array(z.string()) }),
    endedAt: z.string().nullable(),
    /** Worked out by the server at the time of the answer. */
    state: z.enum(MAINTENANCE_STATES),
    /** When the occurrence in progress ends (state active). */
    activeUntil: z.string().nullable(),
    /** The next occurrence to begin, if any. */
    nextStart: z.string().nullable(),
    nextEnd: z.string().nullable(),
    createdByName: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MaintenanceWindow' });
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

export const MaintenanceWindowList = listOf(MaintenanceWindow);
export type MaintenanceWindowList = z.infer<typeof MaintenanceWindowList>;

export const MaintenanceListQuery = z.object({
  /** Only the windows covering this client (its own, or the whole tenant's). */
  clientId: z.string().trim().min(1).max(100).optional(),
  /** Leave out the ended ones. */
  current: z.enum(['true', 'false']).optional(),
});
export type MaintenanceListQuery = z.infer<typeof MaintenanceListQuery>;

export const MaintenanceParams = z.object({ tenantId: z.string().min(1).max(100), windowId: z.string().min(1).max(100) });
