import { z } from 'zod';
import { listOf } from './common.ts';
import { AlertPriority } from './alerts.ts';

/**
 * Heartbeat monitors (issue 28): a job pings its secret URL; a ping that does not come in time opens an alert.
 * healthchecks.io's states: new (never pinged), up, late (past its interval, within its grace), down, paused.
 */
export const HEARTBEAT_STATES = ['new', 'up', 'late', 'down', 'paused'] as const;
export const HeartbeatState = z.enum(HEARTBEAT_STATES);
export type HeartbeatState = z.infer<typeof HeartbeatState>;

export const HEARTBEAT_STATE_LABELS: Record<HeartbeatState, string> = {
  new: 'New',
  up: 'Up',
  late: 'Late',
  down: 'Down',
  paused: 'Paused',
};

export const HEARTBEAT_LIMITS = {
  /** A year: the longest schedule a monitor waits for (monthly and quarterly jobs fit). */
  intervalMaxMinutes: 525_600,
  graceMaxMinutes: 43_200,
  perTenant: 1000,
  /** Pings one monitor may send per minute (per server instance); beyond, 429 with Retry-After. */
  pingsPerMinute: 30,
  /** The largest ping body (a /fail may carry the job's output; the first part of it goes into the alert). */
  pingBodyBytes: 100 * 1024,
  /** How much of a /fail ping's body the alert's description keeps. */
  failOutputChars: 10_000,
} as const;

export const HEARTBEAT_MSG = {
  nameRequired: 'Heartbeat name is required',
  intervalRequired: 'Interval is required',
  intervalRange: `Interval must be a whole number of minutes from 1 to ${HEARTBEAT_LIMITS.intervalMaxMinutes}`,
  graceRequired: 'Grace time is required',
  graceRange: `Grace time must be a whole number of minutes from 0 to ${HEARTBEAT_LIMITS.graceMaxMinutes}`,
  priorityRequired: "Priority must be one of 'critical', 'high', 'medium', 'low' or 'info'",
  unknownClient: 'Client not found',
  notFound: 'Heartbeat monitor not found',
  tooMany: `An organization may have at most ${HEARTBEAT_LIMITS.perTenant} heartbeat monitors`,
  unknownPingUrl: 'Unknown heartbeat ping URL',
  rateLimited: 'Too many pings for this heartbeat monitor. Please retry later.',
  urlShownOnce: 'Copy this ping URL now: it is shown only once. Renewing it later makes a new one.',
  none: 'No heartbeat monitors yet. Create one for each scheduled job (a backup, a sync, a cron task) that should ping on time.',
  noneForClient: 'No heartbeat monitors for this client.',
  loadFailed: 'Failed to load heartbeat monitors. Please try again.',
  deleteConfirm: 'Delete this heartbeat monitor? Its ping URL stops working at once. An alert it opened stays open until someone resolves it.',
  renewConfirm: 'A new ping URL replaces the current one, which stops working at once: update the jobs that ping it.',
  /** Sources of its alerts, as the dashboard and the timeline show them. */
  alertSource: 'Heartbeat',
  alertTitleMissed: (name: string) => `Heartbeat '${name}' missed`,
  alertTitleFailed: (name: string) => `Heartbeat '${name}' reported a failure`,
} as const;

/** The dedup key of a monitor's alerts: one open alert per monitor, its repeats counted on it. */
export const heartbeatDedupKey = (id: string) => `heartbeat:${id}`;

const minutes = (required: string, range: string, min: number, max: number) =>
  z.number({ error: (i) => (i.input === undefined ? required : range) }).int(range).min(min, range).max(max, range);

/** Create and update (PUT: the whole monitor) take the same body. */
export const HeartbeatInput = z.object({
  name: z.string({ error: HEARTBEAT_MSG.nameRequired }).trim().min(1, HEARTBEAT_MSG.nameRequired).max(120, 'Must be at most 120 characters'),
  intervalMinutes: minutes(HEARTBEAT_MSG.intervalRequired, HEARTBEAT_MSG.intervalRange, 1, HEARTBEAT_LIMITS.intervalMaxMinutes),
  graceMinutes: minutes(HEARTBEAT_MSG.graceRequired, HEARTBEAT_MSG.graceRange, 0, HEARTBEAT_LIMITS.graceMaxMinutes),
  clientId: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((v) => v || null),
  priority: z.enum(AlertPriority.options, { error: HEARTBEAT_MSG.priorityRequired }),
});
export type HeartbeatInput = z.infer<typeof HeartbeatInput>;

export const Heartbeat = z
  .object({
    id: z.string(),
    name: z.string(),
    clientId: z.string().nullable(),
    clientName: z.string().nullable(),
    intervalMinutes: z.number().int(),
    graceMinutes: z.number().int(),
    priority: AlertPriority,
    state: HeartbeatState,
    /** The ping URL's first characters, so a person can tell which URL a job has; the URL itself is never stored. */
    tokenPrefix: z.string(),
    /** Its own mail address (a mail to it is a ping; a subject saying it failed is a /fail); null while mail is off. */
    emailAddress: z.string().nullable(),
    lastPingAt: z.string().nullable(),
    /** A run announced with /start and not finished yet (it must finish within the grace time). */
    runStartedAt: z.string().nullable(),
    lastFailAt: z.string().nullable(),
    /** When the next ping is expected (up, late); null while new, down or paused. */
    nextDueAt: z.string().nullable(),
    /** When it goes down without a ping. */
    downAt: z.string().nullable(),
    /** The alert it opened, while it is down. */
    alertId: z.string().nullable(),
    createdAt: z.string(),
    createdByName: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Heartbeat' });
export type Heartbeat = z.infer<typeof Heartbeat>;

/** Answer to create and renew: the only time the ping URL is shown. */
export const HeartbeatWithPingUrl = Heartbeat.extend({ pingUrl: z.string() }).meta({ id: 'HeartbeatWithPingUrl' });
export type HeartbeatWithPingUrl = z.infer<typeof HeartbeatWithPingUrl>;

export const HeartbeatList = listOf(Heartbeat);
export type HeartbeatList = z.infer<typeof HeartbeatList>;

export const HeartbeatListQuery = z.object({ clientId: z.string().trim().min(1).max(100).optional() });
export const HeartbeatParams = z.object({ tenantId: z.string().min(1).max(100), heartbeatId: z.string().min(1).max(100) });
/** Any text: a secret of the wrong shape is an unknown one (404), never a validation error (the router caps the length). */
export const PingParams = z.object({ token: z.string() });

/** The one-liners a job uses to ping (shown with the URL). */
export const pingCommands = (url: string) => ({
  curl: `curl -fsS -m 10 --retry 5 ${url}`,
  powershell: `Invoke-RestMethod ${url}`,
});
