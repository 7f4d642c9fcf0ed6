import { z } from 'zod';
import { listOf } from './common.ts';
import { MAINTENANCE_KINDS, MAINTENANCE_LIMITS, MAINTENANCE_MSG, MAINTENANCE_STATES } from './maintenance-text.ts';
import { isIsoTime, isTimeZone } from './schedules.ts';

// The lists, limits and texts live beside, zod-free for the dashboard's first screen; this module is the whole contract.
export * from './maintenance-text.ts';

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
