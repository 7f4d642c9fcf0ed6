/**
 * Maintenance windows' and snoozes' lists, limits and texts, without a schema: what the dashboard's first screen needs, so its code carries no zod
 * (issue 33). The contract module beside re-exports it; server code imports from there.
 */

import type { SNOOZE_MINUTES } from './alerts-text.ts';

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
