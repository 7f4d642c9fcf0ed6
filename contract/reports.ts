import { z } from 'zod';
import { ALERT_PRIORITIES, AlertPriority, historyBound } from './alerts.ts';
import { TenantParam } from './common.ts';

/** Bounds of a report's period: a longer one is a typing slip (and a full scan of years of alerts). */
export const REPORT_LIMITS = { maxDays: 400, topSources: 10, topIssues: 10 } as const;

/** Texts of the reports (issue 31), shared by the server and the screen. */
export const REPORT_MSG = {
  title: 'Reports',
  description: 'How fast alerts were answered, per client and overall.',
  forbidden: 'Only owners and admins can see reports',
  badTime: 'Must be a date (YYYY-MM-DD) or a date and time with its zone (ISO 8601)',
  required: 'Required',
  fromNotBeforeTo: 'Must be before the end of the period',
  toNotAfterFrom: 'Must be after the start of the period',
  tooLong: `The period can be at most ${REPORT_LIMITS.maxDays} days`,
  badTimeZone: 'Must be a time zone such as Europe/Berlin',
  clientNotFound: 'Client not found',
  loadFailed: 'The report could not be loaded',
  empty: 'No alerts were opened in this period.',
  emptyClient: 'No alerts of this client were opened in this period.',
  noClient: 'No client',
  deletedClient: 'Deleted client',
  integrationResponder: 'Monitoring tools (integrations)',
  formerMember: 'Former member',
  allClients: 'All clients',
  exportCsv: 'CSV',
  printable: 'Printable report',
  print: 'Print',
  backToReports: 'Back to reports',
  printTooMany: (shown: number, total: number) => `The ${shown} clients with the most alerts of ${total} are printed; pick a client to print another.`,
  printLoading: 'Preparing the report…',
  maintenanceNote: 'They paged nobody.',
  maintenanceDone: 'Maintenance done',
  noMaintenance: 'No planned maintenance in this period.',
  neverAcknowledgedHelp: 'Alerts not acknowledged (yet): left out of the acknowledgement times, not counted as zero.',
  withinTargetHelp:
    "Acknowledged within the target of the escalation policy that applied, for the alert's priority. Alerts whose policy has no target for their priority, and open ones whose target has not passed yet, are left out.",
  hourOfWeekHelp: (zone: string) => `When alerts opened, in ${zone}.`,
} as const;

/** A bound of a report's period as a UTC instant: a date is the start of that UTC day; a date and time is taken as is. */
export const reportBound = (value: string) => historyBound(value);

const Bound = z.string({ error: REPORT_MSG.required }).trim().min(1, REPORT_MSG.required).max(40, REPORT_MSG.badTime).refine((v) => reportBound(v) !== null, REPORT_MSG.badTime);

/**
 * `from` (included) and `to` (excluded) of the period: alerts opened in it are reported. `to` after `from`, at most
 * REPORT_LIMITS.maxDays apart. `timeZone`: the zone of the hour-of-week figures (default: the requester's profile
 * zone, else UTC).
 */
export const ReportSummaryQuery = z
  .object({
    from: Bound,
    to: Bound,
    clientId: z.string().trim().min(1, REPORT_MSG.clientNotFound).max(100, REPORT_MSG.clientNotFound).optional(),
    timeZone: z.string().trim().min(1, REPORT_MSG.badTimeZone).max(64, REPORT_MSG.badTimeZone).optional(),
  })
  .superRefine((v, ctx) => {
    const from = reportBound(v.from);
    const to = reportBound(v.to);
    if (!from || !to) return;
    if (from >= to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: REPORT_MSG.fromNotBeforeTo });
      ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MSG.toNotAfterFrom });
    } else if (Date.parse(to) - Date.parse(from) > REPORT_LIMITS.maxDays * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MSG.tooLong });
    }
  });
export type ReportSummaryQuery = z.infer<typeof ReportSummaryQuery>;
export const ReportParams = TenantParam;

const seconds = z.number().nullable();
const share = z.number().nullable();

/**
 * Response figures of a group of alerts (overall, a priority, a client). Times in seconds (whole seconds, rounded);
 * null when no alert of the group has one. `targetEligible`: alerts with an acknowledgement target that is decided
 * (acknowledged, or the target has passed); `ackWithinTargetShare` = withinTarget / targetEligible (0–1).
 */
const ResponseFigures = z.object({
  opened: z.number().int(),
  acknowledged: z.number().int(),
  neverAcknowledged: z.number().int(),
  resolved: z.number().int(),
  mttaSeconds: seconds,
  mttrSeconds: seconds,
  targetEligible: z.number().int(),
  withinTarget: z.number().int(),
  ackWithinTargetShare: share,
});
export type ResponseFigures = z.infer<typeof ResponseFigures>;

export const ReportSummary = z
  .object({
    from: z.string(),
    to: z.string(),
    clientId: z.string().nullable(),
    clientName: z.string().nullable(),
    /** The zone byHourOfWeek is given in. */
    timeZone: z.string(),
    generatedAt: z.string(),
    tenantName: z.string(),
    tenantLogoUrl: z.string().nullable(),
    ...ResponseFigures.shape,
    p90TtaSeconds: seconds,
    p90TtrSeconds: seconds,
    byPriority: z.array(
      ResponseFigures.extend({
        priority: AlertPriority,
        /** The acknowledgement targets (minutes) that applied to this priority's alerts; null when none had one. */
        targetMinutes: z.object({ min: z.number(), max: z.number() }).nullable(),
      }),
    ),
    /** Clients with alerts in the period, most alerts first; `clientId` null: alerts of no client. */
    byClient: z.array(ResponseFigures.extend({ clientId: z.string().nullable(), clientName: z.string().nullable() })),
    /** 168 cells: ISO weekday (1 Monday … 7 Sunday) and hour in `timeZone`. */
    byHourOfWeek: z.array(z.object({ day: z.number().int(), hour: z.number().int(), opened: z.number().int() })),
    /** Sources by occurrences (repeats included), most first. */
    topSources: z.array(z.object({ source: z.string(), occurrences: z.number().int(), alerts: z.number().int() })),
    /** Titles by alerts, most first: what kept coming back. */
    topIssues: z.array(z.object({ title: z.string(), alerts: z.number().int(), occurrences: z.number().int() })),
    /**
     * First acknowledgements and resolutions of the period's alerts per person; `userId` null: done by a monitoring
     * tool through its integration.
     */
    byResponder: z.array(z.object({ userId: z.string().nullable(), name: z.string(), acknowledged: z.number().int(), resolved: z.number().int() })),
    /** Alerts that opened inside a maintenance window (paged nobody). 0 until maintenance windows exist. */
    maintenanceSuppressed: z.number().int(),
    /**
     * The maintenance done in the period (issue 31): each occurrence of a window that took in the client (its own or
     * the whole tenant's) up to now, oldest first, at most 100.
     */
    maintenanceDone: z.array(z.object({ windowId: z.string(), name: z.string(), start: z.string(), end: z.string() })),
  })
  .meta({ id: 'ReportSummary' });
export type ReportSummary = z.infer<typeof ReportSummary>;

export const REPORT_PRIORITIES = ALERT_PRIORITIES;
