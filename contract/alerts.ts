import { z } from 'zod';
import { listOf } from './common.ts';
import { ACTIVE_ALERT_LIMIT } from './plans.ts';
import {
  ACTIVE_STATUSES,
  ALERT_ACTIONS,
  ALERT_MSG,
  ALERT_PRIORITIES,
  ALERT_SORTS,
  ALERT_STATUSES,
  HISTORY_STATUSES,
  PAGED_NOBODY_REASONS,
  SNOOZE_MINUTES,
} from './alerts-text.ts';

// The lists, labels and texts live beside, zod-free for the dashboard's first screen; this module is the whole contract.
export * from './alerts-text.ts';

export const AlertPriority = z.enum(ALERT_PRIORITIES);
export type AlertPriority = z.infer<typeof AlertPriority>;
export const AlertStatus = z.enum(ALERT_STATUSES);
export type AlertStatus = z.infer<typeof AlertStatus>;
export const PagedNobodyReason = z.enum(PAGED_NOBODY_REASONS);
export type PagedNobodyReason = z.infer<typeof PagedNobodyReason>;

export const AlertMetadata = z.record(z.string(), z.unknown());

export const Alert = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    clientId: z.string().nullable(),
    clientName: z.string().nullable(),
    integrationId: z.string().nullable(),
    integrationName: z.string().nullable(),
    dedupKey: z.string().nullable(),
    title: z.string(),
    description: z.string(),
    priority: AlertPriority,
    status: AlertStatus,
    source: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    acknowledgedBy: z.string().nullable(),
    acknowledgedAt: z.string().nullable(),
    resolvedBy: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    closedBy: z.string().nullable(),
    closedAt: z.string().nullable(),
    assignedTo: z.string().nullable(),
    assigneeName: z.string().nullable(),
    tags: z.array(z.string()),
    metadata: AlertMetadata,
    occurrences: z.number().int(),
    lastSeenAt: z.string(),
    /** When it went past the acknowledgement target of its priority while still unacknowledged; null otherwise. */
    overdueAt: z.string().nullable(),
    /** Set when its escalation paged nobody (issue 25): when that was found, and why; null when someone was paged. */
    pagedNobody: z.object({ at: z.string(), reason: PagedNobodyReason }).nullable(),
    /** Issue 31: the maintenance window it opened inside (it paged nobody then); null otherwise. */
    maintenanceWindowId: z.string().nullable().optional(),
    /** Issue 31: until when it is snoozed (while unacknowledged); null when not snoozed. Past: the snooze is over. */
    snoozedUntil: z.string().nullable().optional(),
    /** Issue 30: its ticket in the tenant's PSA (the number people quote, a link into the PSA); null without one. */
    ticket: z.object({ number: z.string(), url: z.string().nullable() }).nullable().optional(),
    /** What the caller may do now, worked out by the server (the UI shows exactly these). */
    actions: z.array(z.enum(ALERT_ACTIONS)),
  })
  .meta({ id: 'Alert' });
export type Alert = z.infer<typeof Alert>;

export const AlertNote = z.object({
  id: z.string(),
  text: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  createdByName: z.string(),
});
export type AlertNote = z.infer<typeof AlertNote>;

/**
 * Timeline entries. The escalation engine adds: `escalated` (a level was paged: detail.level, detail.names),
 * `paged` (one delivery: detail.channel, detail.outcome sent/failed/skipped, detail.reason, detail.userName, detail.level),
 * `overdue` (past the acknowledgement target of its priority: detail.minutes) and `unrouted` (no policy: nobody paged).
 */
// Issue 31: `maintenance` (opened inside a window: detail.windowName), `snoozed` (detail.until) and `unsnoozed` by a
// person, `released` (detail.reason 'maintenance' | 'snooze': its escalation starts from level 1).
// Issue 30: `ticket` (its PSA ticket: opened, noted, closed, not opened and why, failed: detail.text, detail.number, detail.url).
// Issue 29: `posted` (posted to a chat: detail.destination, detail.type 'teams' | 'slack', detail.event); an action taken
// from a chat carries detail.via ('Slack' | 'Teams') on its own entry.
export const TIMELINE_KINDS = ['triggered', 'repeated', 'acknowledged', 'started', 'resolved', 'closed', 'assigned', 'note', 'escalated', 'paged', 'overdue', 'unrouted', 'maintenance', 'snoozed', 'unsnoozed', 'released', 'ticket', 'posted'] as const;
/**
 * Where an action came from, as said before its author: "from Slack " of "Acknowledged from Slack by Jane" (an entry's
 * `via`); nothing for an action taken in the app. The timeline and the chat posts say it alike.
 */
export const viaPhrase = (via: unknown): string => (typeof via === 'string' && via ? `from ${via} ` : '');
export const TimelineEntry = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  actorType: z.enum(['user', 'integration', 'system']),
  actorId: z.string().nullable(),
  actorName: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const AlertDetail = z
  .object({
    alert: Alert,
    acknowledgedByName: z.string().nullable(),
    resolvedByName: z.string().nullable(),
    closedByName: z.string().nullable(),
    notes: z.array(AlertNote),
    timeline: z.array(TimelineEntry),
  })
  .meta({ id: 'AlertDetail' });
export type AlertDetail = z.infer<typeof AlertDetail>;

const all = <T extends readonly [string, ...string[]]>(values: T) => z.enum(['all', ...values] as [string, ...string[]]).default('all');

export const ActiveAlertsQuery = z.object({
  status: all(ACTIVE_STATUSES),
  priority: all(ALERT_PRIORITIES),
  clientId: z.string().trim().min(1).max(100).optional(),
  assignee: z.string().trim().min(1).max(100).optional(),
  /** Text in the title, description, source or dedup key (case-insensitive substring), as the history searches. */
  q: z.string().trim().max(200).optional(),
  /** Issue 30: only alerts with a PSA ticket (`true`) or only those without one (`false`); absent: both. */
  hasTicket: z
    .enum(['true', 'false'], { error: "Must be 'true' or 'false'" })
    .transform((v) => v === 'true')
    .optional(),
  sort: z.enum(ALERT_SORTS).default('priority'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ACTIVE_ALERT_LIMIT).default(ACTIVE_ALERT_LIMIT),
});
export type ActiveAlertsQuery = z.infer<typeof ActiveAlertsQuery>;

export const HISTORY_PAGE_SIZE = 20;

/** Texts of the history's date range and its CSV export (issue 32). */
export const HISTORY_MSG = {
  badTime: 'Must be a date (YYYY-MM-DD) or a date and time with its zone (ISO 8601)',
  fromAfterTo: 'Must not be after the end of the range',
  toBeforeFrom: 'Must not be before the start of the range',
  exportCsv: 'Export CSV',
  exportFailed: 'The export failed. Please try again.',
  exportNothing: 'No resolved or closed alerts match these filters: nothing to export.',
  exporting: (rows: number, total: number | null) =>
    total === null ? `Exporting… ${rows.toLocaleString('en')} alerts` : `Exporting… ${rows.toLocaleString('en')} of ${total.toLocaleString('en')} alerts`,
  exported: (rows: number, filename: string) => `Saved ${rows.toLocaleString('en')} ${rows === 1 ? 'alert' : 'alerts'} to ${filename}`,
} as const;

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A bound of the history's range as a UTC instant (`toISOString`, the form times are stored in), or null when it is
 * not one: a calendar date (`2025-03-01`, the UTC day) or a date and time with its zone. `end` makes a date mean the
 * end of its day (the range's `to` takes in the whole day; a date and time is taken as is).
 */
export function historyBound(value: string, end = false): string | null {
  const m = ISO_TIME.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  const ms = value.length === 10 ? day.getTime() + (end ? 86_400_000 - 1 : 0) : Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const iso = new Date(ms).toISOString();
  // An offset may carry the instant past year 9999 (`+010000-…`): not comparable as stored text.
  return /^\d{4}-/.test(iso) ? iso : null;
}

const HistoryTime = z.string().trim().refine((v) => historyBound(v) !== null, HISTORY_MSG.badTime).optional();

/**
 * What selects history alerts (the list, its export): status, priority, client, text, and the range of their
 * resolution time, `from` and `to` both included.
 */
const HistoryFilter = z.object({
  status: all(HISTORY_STATUSES),
  priority: all(ALERT_PRIORITIES),
  q: z.string().trim().max(200).optional(),
  clientId: z.string().max(100).optional(),
  from: HistoryTime,
  to: HistoryTime,
});

/** `from` after `to` is refused on both fields. */
const rangeInOrder = (v: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (!v.from || !v.to) return;
  const from = historyBound(v.from);
  const to = historyBound(v.to, true);
  if (from && to && from > to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: HISTORY_MSG.fromAfterTo });
    ctx.addIssue({ code: 'custom', path: ['to'], message: HISTORY_MSG.toBeforeFrom });
  }
};

export const AlertHistoryQuery = HistoryFilter.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(HISTORY_PAGE_SIZE),
}).superRefine(rangeInOrder);
export type AlertHistoryQuery = z.infer<typeof AlertHistoryQuery>;

/** The export's query: the history's filters, every page. */
export const AlertHistoryExportQuery = HistoryFilter.superRefine(rangeInOrder);
export type AlertHistoryFilter = z.infer<typeof AlertHistoryExportQuery>;

/** Rows the export reads per query (keyset pages; SQLite serves other requests between two). */
export const HISTORY_EXPORT_BATCH = 1_000;
/** Characters of an alert's description the export keeps (trimmed; a longer one is cut and ends with "…"). */
export const HISTORY_EXPORT_DESCRIPTION_CHARS = 1_000;
/** The header of the export, one column each. */
export const HISTORY_EXPORT_COLUMNS = [
  'Alert ID',
  'Title',
  'Priority',
  'Status',
  'Client',
  'Source',
  'Created at',
  'Acknowledged by',
  'Acknowledged at',
  'Resolved by',
  'Resolved at',
  'Closed by',
  'Closed at',
  'Occurrences',
  'Description',
] as const;

/** The history counts at most this many matches: past it, `totalCapped` says "at least" (a count of a million rows costs a second). */
export const HISTORY_COUNT_LIMIT = 10_000;

/**
 * Issue 33: when the server read an answer, taken just before its query, so a dashboard that asked for its list while
 * its live stream was still subscribing can tell whether a change slipped in between (compared with the stream's
 * `ready`, StreamPosition). `seq` counts the alert changes this instance (`instance`) had heard; `at` is its clock (ms).
 */
export const ReadStamp = z.object({ instance: z.string(), seq: z.number().int(), at: z.number() }).meta({ id: 'ReadStamp' });
export type ReadStamp = z.infer<typeof ReadStamp>;

export const AlertList = listOf(Alert)
  .extend({
    /** True when `total` stopped at HISTORY_COUNT_LIMIT: there are at least that many (history only). */
    totalCapped: z.boolean().optional(),
    /** When it was read (the active list only). */
    readStamp: ReadStamp.optional(),
  })
  .meta({ id: 'AlertList' });
export type AlertList = z.infer<typeof AlertList>;

export const AlertStats = z
  .object({
    critical: z.number().int(),
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
    info: z.number().int(),
    /** Low and Info together, as the fourth stat card shows them. */
    lowInfo: z.number().int(),
    total: z.number().int(),
    /** Whether the tenant has ever received an alert (open or not): until it has, the dashboard shows how to start. */
    hasAlerts: z.boolean(),
    /** Alerts of the tenant (any status) whose escalation paged nobody in the last PAGED_NOBODY_WINDOW_HOURS hours. */
    pagedNobody: z.number().int(),
    /** When it was read. */
    readStamp: ReadStamp.optional(),
  })
  .meta({ id: 'AlertStats' });
export type AlertStats = z.infer<typeof AlertStats>;

export const AlertParams = z.object({ tenantId: z.string().min(1).max(100), alertId: z.string().min(1).max(100) });

export const AssignBody = z.object({
  userId: z.string({ error: ALERT_MSG.assigneeRequired }).trim().min(1, ALERT_MSG.assigneeRequired).max(100),
});
export const NoteBody = z.object({
  text: z.string({ error: ALERT_MSG.noteRequired }).trim().min(1, ALERT_MSG.noteRequired).max(10_000, 'A note must be at most 10000 characters'),
});

/** Snooze (issue 31): the longest a snooze may last (its choices, SNOOZE_MINUTES, are in alerts-text.ts). */
export const SNOOZE_MAX_DAYS = 30;
export const SNOOZE_MSG = {
  durationRequired: 'Choose how long: 30, 60 or 240 minutes, or until a time',
  minutesInvalid: 'Snooze for 30, 60 or 240 minutes',
  untilInvalid: 'Enter a date and time with its offset, e.g. 2026-03-08T22:00:00Z',
  untilPast: 'Choose a time in the future',
  untilTooFar: `Snooze for at most ${SNOOZE_MAX_DAYS} days`,
  notSnoozable: 'Only a new (unacknowledged) alert can be snoozed',
  notSnoozed: 'This alert is not snoozed',
} as const;

const snoozeMinutes = z
  .number({ error: SNOOZE_MSG.minutesInvalid })
  .refine((m) => (SNOOZE_MINUTES as readonly number[]).includes(m), SNOOZE_MSG.minutesInvalid);
const snoozeUntil = z
  .string({ error: SNOOZE_MSG.untilInvalid })
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), SNOOZE_MSG.untilInvalid);

/** `{ minutes: 30 | 60 | 240 }` or `{ until: ISO time }` (in the future, within SNOOZE_MAX_DAYS: the server checks). */
export const SnoozeBody = z
  .object({ minutes: snoozeMinutes.optional(), until: snoozeUntil.optional() })
  .superRefine((b, ctx) => {
    if ((b.minutes === undefined) === (b.until === undefined)) ctx.addIssue({ code: 'custom', path: ['minutes'], message: SNOOZE_MSG.durationRequired });
  });
export type SnoozeBody = z.infer<typeof SnoozeBody>;

/** Actions that can be applied to several alerts at once (dashboard selection). */
export const BULK_ACTIONS = ['acknowledge', 'resolve', 'assign', 'snooze', 'unsnooze'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_LIMIT = 100;
export const BULK_MSG = {
  actionRequired: 'Choose an action: acknowledge, resolve, assign, snooze or unsnooze',
  alertsRequired: 'Choose at least one alert',
  tooMany: `At most ${BULK_LIMIT} alerts at once`,
} as const;

export const BulkAlertBody = z
  .object({
    action: z.enum(BULK_ACTIONS, { error: BULK_MSG.actionRequired }),
    alertIds: z
      .array(z.string().trim().min(1).max(100), { error: BULK_MSG.alertsRequired })
      .min(1, BULK_MSG.alertsRequired)
      .max(BULK_LIMIT, BULK_MSG.tooMany)
      .transform((ids) => [...new Set(ids)]),
    /** The member to assign (action `assign` only). */
    userId: z.string().trim().min(1, ALERT_MSG.assigneeRequired).max(100).optional(),
    /** How long to snooze (action `snooze` only): minutes, or until a time, as SnoozeBody. */
    minutes: snoozeMinutes.optional(),
    until: snoozeUntil.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === 'assign' && !b.userId) ctx.addIssue({ code: 'custom', path: ['userId'], message: ALERT_MSG.assigneeRequired });
    if (b.action === 'snooze' && (b.minutes === undefined) === (b.until === undefined)) ctx.addIssue({ code: 'custom', path: ['minutes'], message: SNOOZE_MSG.durationRequired });
  });
export type BulkAlertBody = z.input<typeof BulkAlertBody>;

/**
 * One alert's outcome in a bulk change: the changed alert, or why it was left as it is (404 missing or another
 * tenant's, 409 changed meanwhile so the action no longer applies, 400 an assignee who is not a member). An alert
 * already where the action leads (acknowledged, or resolved) is done: `ok`, with `unchanged` saying so.
 */
export const BulkAlertOutcome = z.object({
  id: z.string(),
  ok: z.boolean(),
  alert: Alert.optional(),
  unchanged: z.object({ code: z.enum(['already_acknowledged', 'already_resolved']), message: z.string() }).optional(),
  error: z.object({ status: z.number().int(), code: z.string(), message: z.string() }).optional(),
});
export type BulkAlertOutcome = z.infer<typeof BulkAlertOutcome>;
export const BulkAlertResult = z
  .object({ results: z.array(BulkAlertOutcome), succeeded: z.number().int(), failed: z.number().int() })
  .meta({ id: 'BulkAlertResult' });
export type BulkAlertResult = z.infer<typeof BulkAlertResult>;

export const Assignee = z.object({ id: z.string(), displayName: z.string(), email: z.string() });
export type Assignee = z.infer<typeof Assignee>;
export const AssigneeList = z.object({ items: z.array(Assignee) });

/** What the alert bus carries between instances: which alert changed. */
export const AlertChange = z.object({
  kind: z.enum(['created', 'updated']),
  id: z.string(),
  status: AlertStatus,
  priority: AlertPriority,
  dedupKey: z.string().nullable(),
  updatedAt: z.string(),
});
export type AlertChange = z.infer<typeof AlertChange>;

/**
 * One message of the tenant's live stream (`event: alert`): the change, with the alert as it is now when the server
 * could load it (each instance loads the changes of a moment once, for all its viewers). A dashboard applies it to
 * what it shows; without it (a burst, the database away) it reloads.
 */
export const AlertStreamEvent = AlertChange.extend({
  alert: Alert.optional(),
  /** When the instance serving the stream heard the change (its count and clock): compared with an answer's read stamp. */
  heard: ReadStamp.optional(),
});
export type AlertStreamEvent = z.infer<typeof AlertStreamEvent>;

/**
 * The data of the live stream's `ready` (issue 33): what the instance serving the stream had heard of the tenant's
 * alert changes when it subscribed. `since`/`sinceSeq`: from when (its clock, its count) it has heard every change of
 * every tenant (its start, or its bus's last reconnection); `seq`/`at`: the tenant's latest change it heard (0 if none).
 */
export const StreamPosition = z.object({ instance: z.string(), since: z.number(), sinceSeq: z.number().int(), seq: z.number().int(), at: z.number() });
export type StreamPosition = z.infer<typeof StreamPosition>;

export { ACTIVE_ALERT_LIMIT };
