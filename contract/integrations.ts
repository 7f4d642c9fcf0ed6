import { z } from 'zod';
import { boundedJson, JSON_LIMITS, listOf } from './common.ts';
import { AlertPriority } from './alerts.ts';
import { escalationPolicyRef } from './escalation.ts';

export const INTEGRATION_KEY_LENGTH = 32;

export const INTEGRATION_MSG = {
  nameRequired: 'Integration name is required',
  unknownClient: 'Client not found',
  revoked: 'This integration has been revoked',
  keyShownOnce: 'Copy this key now: it is shown only once.',
  invalidKey: 'Invalid or revoked integration key',
  rateLimited: 'Too many events for this integration key. Please retry later.',
  tooLarge: 'Request body is too large',
  testAlertTitle: 'Test alert from Alertdesk',
  noIntegrations: 'No integrations yet. Create one to receive alerts from your monitoring tools.',
  loadFailed: 'Failed to load integrations. Please try again.',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Email to alert: each integration's own address and its mail rules (server/modules/inbound-mail).

export const EMAIL_RULE_FIELDS = ['subject', 'body'] as const;
export const EmailRuleField = z.enum(EMAIL_RULE_FIELDS);
export type EmailRuleField = z.infer<typeof EmailRuleField>;

/**
 * Bounds that keep a tenant's patterns cheap: a pattern's length, and how much of a mail's subject and text they run
 * over (each run is also stopped after a few milliseconds on the server).
 */
export const EMAIL_LIMITS = { patternChars: 200, priorityWords: 50, wordChars: 40, subjectChars: 1000, bodyChars: 20_000 } as const;

export const EMAIL_MSG = {
  patternTooLong: `Must be at most ${EMAIL_LIMITS.patternChars} characters`,
  invalidPattern: (reason: string) => `Not a valid regular expression: ${reason}`,
  nestedRepetition: 'A repetition inside a repetition, like (a+)+, can take forever on some mails: simplify the pattern',
  wordRequired: 'Word is required',
  wordCharacters: 'Only letters, digits, spaces, - and _',
  wordTwice: 'This word is listed twice',
  tooManyWords: `At most ${EMAIL_LIMITS.priorityWords} words`,
  addressRenewed: 'The old address stops working at once: update the tools that send to it.',
} as const;

/** A word (or a few) of a mail's subject and the priority it gives the alert: whole words, any case. */
export const PriorityWord = z.object({ word: z.string(), priority: AlertPriority });
export type PriorityWord = z.infer<typeof PriorityWord>;

/** The words used while an integration has none of its own: the most severe one found in the subject wins. */
export const DEFAULT_PRIORITY_WORDS: readonly PriorityWord[] = [
  ...['critical', 'emergency', 'fatal', 'disaster'].map((word) => ({ word, priority: 'critical' as const })),
  ...['high', 'error', 'failed', 'failure', 'down', 'major'].map((word) => ({ word, priority: 'high' as const })),
  ...['warning', 'warn', 'medium', 'degraded', 'average'].map((word) => ({ word, priority: 'medium' as const })),
  ...['low', 'minor', 'notice'].map((word) => ({ word, priority: 'low' as const })),
  ...['info', 'information', 'informational', 'success', 'succeeded'].map((word) => ({ word, priority: 'info' as const })),
];

/** What a resolving subject starts with while an integration has no resolve pattern of its own. */
export const DEFAULT_RESOLVE_WORDS = ['RESOLVED', 'OK', 'Recovery', 'Recovered', 'Cleared'] as const;

/**
 * An integration's mail rules. Patterns are JavaScript regular expressions, matched without regard to case, ^ and $
 * matching at each line.
 * - dedupPattern over dedupField: its first capture group (else the whole match) is the alert's dedup key; null, or a
 *   mail it does not match: the subject without "RE:"/"[RESOLVED]"-style prefixes, dates, times and counters.
 * - resolvePattern over resolveField: a match resolves the open alert of the mail's dedup key; null: the subject
 *   starts with one of DEFAULT_RESOLVE_WORDS.
 * - priorityWords: null uses DEFAULT_PRIORITY_WORDS; defaultPriority applies when no word is found.
 */
export const EmailSettings = z
  .object({
    dedupPattern: z.string().nullable(),
    dedupField: EmailRuleField,
    resolvePattern: z.string().nullable(),
    resolveField: EmailRuleField,
    priorityWords: z.array(PriorityWord).nullable(),
    defaultPriority: AlertPriority,
  })
  .meta({ id: 'EmailSettings' });
export type EmailSettings = z.infer<typeof EmailSettings>;

export const DEFAULT_EMAIL_SETTINGS: EmailSettings = {
  dedupPattern: null,
  dedupField: 'subject',
  resolvePattern: null,
  resolveField: 'subject',
  priorityWords: null,
  defaultPriority: 'medium',
};

/**
 * Why a pattern may not be used, or null when it may: too long, not a regular expression, or an unbounded repetition
 * inside another one (`(a+)+`, `(\w*)*`), the shape whose backtracking explodes on a mail that almost matches.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > EMAIL_LIMITS.patternChars) return EMAIL_MSG.patternTooLong;
  try {
    new RegExp(pattern, 'im');
  } catch (err) {
    const reason = String((err as Error).message ?? err).replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
    return EMAIL_MSG.invalidPattern(reason);
  }
  return hasNestedRepetition(pattern) ? EMAIL_MSG.nestedRepetition : null;
}

/** One pass over a pattern that compiled: does a group holding an unbounded repetition repeat without bound itself? */
function hasNestedRepetition(p: string): boolean {
  // Per open group: whether something inside it repeats without bound.
  const groups: boolean[] = [false];
  let lastClosedRepeats = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    let atomClosedGroup = false;
    if (c === '\\') i++;
    else if (c === '[') {
      for (i++; i < p.length && p[i] !== ']'; i++) if (p[i] === '\\') i++;
    } else if (c === '(') {
      groups.push(false);
      continue;
    } else if (c === ')') {
      lastClosedRepeats = groups.pop() ?? false;
      atomClosedGroup = true;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') continue;
    // Is the atom just read followed by an unbounded quantifier (*, + or {n,})?
    const next = p[i + 1];
    const unbounded = next === '*' || next === '+' || (next === '{' && /^\{\d+,\}/.test(p.slice(i + 1)));
    if (unbounded) {
      if (atomClosedGroup && lastClosedRepeats) return true;
      groups[groups.length - 1] = true;
    } else if (atomClosedGroup && lastClosedRepeats) groups[groups.length - 1] = true;
  }
  return false;
}

const patternInput = z
  .string()
  .trim()
  .nullable()
  .superRefine((v, ctx) => {
    const problem = v ? patternProblem(v) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((v) => v || null);

const PriorityWordInput = z.object({
  word: z
    .string({ error: EMAIL_MSG.wordRequired })
    .trim()
    .min(1, EMAIL_MSG.wordRequired)
    .max(EMAIL_LIMITS.wordChars, `Must be at most ${EMAIL_LIMITS.wordChars} characters`)
    .regex(/^[\p{L}\p{N} _-]+$/u, EMAIL_MSG.wordCharacters),
  priority: AlertPriority,
});

/** Changes to an integration's mail rules: a field left out keeps its value; null restores a default. */
export const EmailSettingsInput = z.object({
  dedupPattern: patternInput.optional(),
  dedupField: EmailRuleField.optional(),
  resolvePattern: patternInput.optional(),
  resolveField: EmailRuleField.optional(),
  priorityWords: z
    .array(PriorityWordInput)
    .max(EMAIL_LIMITS.priorityWords, EMAIL_MSG.tooManyWords)
    .nullable()
    .optional()
    .superRefine((words, ctx) => {
      const seen = new Set<string>();
      words?.forEach((w, i) => {
        const key = w.word.toLowerCase().replace(/\s+/g, ' ');
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'word'], message: EMAIL_MSG.wordTwice });
        seen.add(key);
      });
    }),
  defaultPriority: AlertPriority.optional(),
});
export type EmailSettingsInput = z.input<typeof EmailSettingsInput>;
export type EmailSettingsChange = z.output<typeof EmailSettingsInput>;

export const Integration = z
  .object({
    id: z.string(),
    name: z.string(),
    clientId: z.string().nullable(),
    clientName: z.string().nullable(),
    /** The escalation policy for alerts through this key (issue 11); none: the client's, else the default. */
    escalationPolicyId: z.string().nullable(),
    /** The key's first characters, so a person can tell keys apart; the key itself is never stored. */
    keyPrefix: z.string(),
    status: z.enum(['active', 'revoked']),
    createdAt: z.string(),
    createdByName: z.string().nullable(),
    updatedAt: z.string(),
    revokedAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    endpoints: z.object({ pagerduty: z.string(), alertmanager: z.string(), events: z.string() }),
    /** Mail to this address becomes alerts (`<random token>@<INBOUND_EMAIL_DOMAIN>`, renewable); null once revoked. */
    emailAddress: z.string().nullable(),
    emailSettings: EmailSettings,
  })
  .meta({ id: 'Integration' });
export type Integration = z.infer<typeof Integration>;

export const IntegrationList = listOf(Integration);
/** Answer to create and rotate: the only time the full key is shown. */
export const IntegrationWithKey = z.object({ integration: Integration, key: z.string() });
export type IntegrationWithKey = z.infer<typeof IntegrationWithKey>;

const clientRef = z
  .string()
  .trim()
  .max(100)
  .nullish()
  .transform((v) => v || null);

export const CreateIntegrationBody = z.object({
  name: z.string({ error: INTEGRATION_MSG.nameRequired }).trim().min(1, INTEGRATION_MSG.nameRequired).max(120, 'Must be at most 120 characters'),
  clientId: clientRef,
  escalationPolicyId: escalationPolicyRef,
  emailSettings: EmailSettingsInput.optional(),
});
export const UpdateIntegrationBody = z.object({
  name: z.string({ error: INTEGRATION_MSG.nameRequired }).trim().min(1, INTEGRATION_MSG.nameRequired).max(120, 'Must be at most 120 characters').optional(),
  clientId: clientRef.optional(),
  escalationPolicyId: escalationPolicyRef.optional(),
  emailSettings: EmailSettingsInput.optional(),
});
export const IntegrationParams = z.object({ tenantId: z.string().min(1).max(100), integrationId: z.string().min(1).max(100) });
export const TestAlertResponse = z.object({ alertId: z.string(), dedupKey: z.string() });

// ---------------------------------------------------------------------------------------------------------------
// Ingestion formats. Limits follow PagerDuty's where it has them (summary 1024 characters, dedup_key 255).

const text = (max: number) => z.string().max(max, `Must be at most ${max} characters`);

/** PagerDuty Events API v2 (`POST /v2/enqueue`). */
export const PagerDutyEvent = z
  .object({
    routing_key: z.string({ error: 'routing_key is required' }).min(1, 'routing_key is required').max(100),
    event_action: z.enum(['trigger', 'acknowledge', 'resolve'], { error: "event_action must be one of 'trigger', 'acknowledge' or 'resolve'" }),
    dedup_key: text(255).optional(),
    payload: z
      .object({
        summary: z.string({ error: 'payload.summary is required' }).trim().min(1, 'payload.summary is required'),
        source: z.string({ error: 'payload.source is required' }).trim().min(1, 'payload.source is required').max(1024),
        severity: z.enum(['critical', 'error', 'warning', 'info'], { error: "payload.severity must be one of 'critical', 'error', 'warning' or 'info'" }),
        // Kept as sent: tools disagree on the offset format (+0000 or +00:00), and an alert is never refused for it.
        timestamp: text(64).optional(),
        component: text(1024).optional(),
        group: text(1024).optional(),
        class: text(1024).optional(),
        custom_details: boundedJson(z.unknown(), JSON_LIMITS.metadataChars).optional(),
      })
      .optional(),
    client: text(1024).optional(),
    client_url: text(2048).optional(),
    links: z.array(z.object({ href: text(2048), text: text(1024).optional() })).max(50).optional(),
    images: z.array(z.object({ src: text(2048), href: text(2048).optional(), alt: text(1024).optional() })).max(50).optional(),
  })
  .superRefine((e, ctx) => {
    if (e.event_action === 'trigger' && !e.payload) ctx.addIssue({ code: 'custom', path: ['payload'], message: 'payload is required for trigger events' });
    if (e.event_action !== 'trigger' && !e.dedup_key) ctx.addIssue({ code: 'custom', path: ['dedup_key'], message: `dedup_key is required for ${e.event_action} events` });
  })
  .meta({ id: 'PagerDutyEvent' });
export type PagerDutyEvent = z.infer<typeof PagerDutyEvent>;

export const PagerDutyAccepted = z.object({ status: z.literal('success'), message: z.string(), dedup_key: z.string() });
export const PagerDutyError = z.object({ status: z.string(), message: z.string(), errors: z.array(z.string()).optional() });

/** Alertmanager labels (they become tags) and annotations (they become the title, description and metadata). */
const labelMap = boundedJson(z.record(z.string(), z.string()), JSON_LIMITS.labelsChars);
const annotationMap = boundedJson(z.record(z.string(), z.string()), JSON_LIMITS.metadataChars);

/** One alert of a Prometheus Alertmanager webhook (payload version 4). */
export const AlertmanagerAlert = z.object({
  status: z.enum(['firing', 'resolved']).optional(),
  labels: labelMap,
  annotations: annotationMap.optional(),
  startsAt: z.string().max(64).optional(),
  endsAt: z.string().max(64).optional(),
  generatorURL: text(4096).optional(),
  fingerprint: text(255).optional(),
});

/** Prometheus Alertmanager webhook (`POST /api/ingest/alertmanager`). */
export const AlertmanagerWebhook = z
  .object({
    version: z.string().max(10).optional(),
    groupKey: text(4096).optional(),
    truncatedAlerts: z.number().int().optional(),
    status: z.enum(['firing', 'resolved'], { error: "status must be 'firing' or 'resolved'" }),
    receiver: text(1024).optional(),
    groupLabels: labelMap.optional(),
    commonLabels: labelMap.optional(),
    commonAnnotations: annotationMap.optional(),
    externalURL: text(4096).optional(),
    alerts: z.array(AlertmanagerAlert, { error: 'alerts must be a list' }).min(1, 'alerts must not be empty').max(1000, 'At most 1000 alerts per request'),
  })
  .meta({ id: 'AlertmanagerWebhook' });
export type AlertmanagerWebhook = z.infer<typeof AlertmanagerWebhook>;

/** Our own generic format (`POST /api/ingest/events`). */
export const GenericEvent = z
  .object({
    action: z.enum(['trigger', 'acknowledge', 'resolve'], { error: "action must be one of 'trigger', 'acknowledge' or 'resolve'" }).default('trigger'),
    dedupKey: text(255).optional(),
    title: z.string({ error: 'title is required' }).trim().min(1, 'title is required').optional(),
    description: text(65_536).optional(),
    priority: AlertPriority.optional(),
    source: text(1024).optional(),
    /** A client of the tenant, by id or by name. */
    client: text(200).optional(),
    tags: z.array(text(200)).max(50, 'At most 50 tags').optional(),
    metadata: boundedJson(z.record(z.string(), z.unknown()), JSON_LIMITS.metadataChars).optional(),
  })
  .superRefine((e, ctx) => {
    if (e.action === 'trigger' && !e.title) ctx.addIssue({ code: 'custom', path: ['title'], message: 'title is required' });
    if (e.action !== 'trigger' && !e.dedupKey) ctx.addIssue({ code: 'custom', path: ['dedupKey'], message: `dedupKey is required for ${e.action} events` });
  })
  .meta({ id: 'GenericEvent' });
export type GenericEvent = z.infer<typeof GenericEvent>;

export const IngestResult = z.enum(['created', 'deduplicated', 'acknowledged', 'resolved', 'ignored']);
export type IngestResult = z.infer<typeof IngestResult>;

export const GenericAccepted = z.object({
  status: z.literal('success'),
  message: z.string(),
  dedupKey: z.string(),
  alertId: z.string().nullable(),
  result: IngestResult,
});
export const AlertmanagerAccepted = z.object({
  status: z.literal('success'),
  message: z.string(),
  alerts: z.array(z.object({ dedupKey: z.string(), alertId: z.string().nullable(), result: IngestResult })),
});
