import { z } from 'zod';
import { AlertPriority } from './alerts.ts';
import { requiredString } from './common.ts';

/**
 * PSA connections of a tenant (issue 30): alerts open tickets in the MSP's PSA (ConnectWise PSA, Autotask, HaloPSA),
 * one ticket per problem, kept in step both ways. Credentials are stored encrypted and never answered: a connection
 * says which of its secrets are set (`secretsSet`), not their values.
 */
export const PSA_TYPES = ['connectwise', 'autotask', 'halopsa'] as const;
export type PsaType = (typeof PSA_TYPES)[number];

export const PSA_NAMES: Record<PsaType, string> = { connectwise: 'ConnectWise PSA', autotask: 'Autotask', halopsa: 'HaloPSA' };

/** The settings of each type that are secrets: encrypted at rest, never answered, kept when an update leaves them out. */
export const PSA_SECRET_FIELDS = {
  connectwise: ['privateKey', 'clientId'],
  autotask: ['secret', 'integrationCode'],
  halopsa: ['clientSecret'],
} as const satisfies Record<PsaType, readonly string[]>;

export const PSA_LIMITS = {
  perTenant: 10,
  /** ConnectWise refuses a longer ticket summary. */
  summaryChars: 100,
  /** Tries of a ticket's queued calls before they are given up (backoff 5 s × 4ⁿ, at most 10 min: about 2 h 40 min). */
  attempts: 20,
  /** A recurrence this soon after its ticket was closed reopens or links it (rules.recurrence). */
  reopenWindowMs: 24 * 3600_000,
  companiesShown: 50,
  maxMinutes: 1440,
} as const;

export const PSA_MSG = {
  notFound: 'PSA connection not found',
  nameRequired: 'Connection name is required',
  urlInvalid: 'Must be an http:// or https:// address',
  required: 'Required',
  secretRequired: 'Required when creating a connection',
  typeInvalid: "Type must be 'connectwise', 'autotask' or 'halopsa'",
  typeFixed: 'The type of a connection cannot be changed',
  tooMany: `An organization may have at most ${PSA_LIMITS.perTenant} PSA connections`,
  prioritiesRequired: 'Choose at least one priority',
  minutesRequired: `Minutes must be a whole number from 1 to ${PSA_LIMITS.maxMinutes}`,
  unknownClient: 'Client not found',
  testOk: 'Connected',
  /** Timeline texts (kind `ticket`, detail.text). */
  ticketOpened: (psa: string, number: string) => `Ticket #${number} opened in ${psa}`,
  ticketReopened: (psa: string, number: string) => `Ticket #${number} reopened in ${psa}`,
  ticketLinked: (psa: string, number: string, previous: string) => `Ticket #${number} opened in ${psa}, linked to ticket #${previous}`,
  ticketClosed: (psa: string, number: string) => `Ticket #${number} closed in ${psa}`,
  noTicketUnmapped: (psa: string) => `No ${psa} ticket opened: the alert's client is not mapped to a company and the connection has no catch-all company`,
  noTicketNoClient: (psa: string) => `No ${psa} ticket opened: the alert has no client and the connection has no catch-all company`,
  noTicketAcknowledged: (psa: string, minutes: number) => `No ${psa} ticket opened: acknowledged within ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  ticketFailed: (psa: string, error: string) => `${psa} ticket update failed for good: ${error}`,
  ticketRetrying: (psa: string, error: string) => `${psa} ticket update failed, retrying: ${error}`,
  closedInPsaResolved: (psa: string, number: string) => `Ticket #${number} was closed in ${psa}: alert resolved`,
  closedInPsaAcknowledged: (psa: string, number: string) => `Ticket #${number} was closed in ${psa}: alert acknowledged`,
  /** Ticket notes. */
  noteRecurrence: (occurrences: number) => `The alert happened again: seen ${occurrences} times`,
  noteAcknowledged: (name: string) => `Acknowledged in Alertdesk by ${name}`,
  noteAssigned: (name: string, assignee: string) => `Assigned in Alertdesk by ${name} to ${assignee}`,
  noteText: (name: string, text: string) => `Note in Alertdesk by ${name}: ${text}`,
  noteResolved: (name: string) => `Resolved in Alertdesk by ${name}`,
  noteReopened: (occurrences: number) => `The problem came back (seen ${occurrences} times)`,
} as const;

const httpUrl = z
  .string({ error: PSA_MSG.urlInvalid })
  .trim()
  .max(2000)
  .refine((u) => {
    try {
      const p = new URL(u);
      return (p.protocol === 'https:' || p.protocol === 'http:') && !!p.hostname && !p.username && !p.password;
    } catch {
      return false;
    }
  }, PSA_MSG.urlInvalid)
  .transform((u) => u.replace(/\/+$/, ''));
const text = (max = 200) => requiredString(PSA_MSG.required, max);
/** A secret: required on creation (the service checks), left out on an update to keep the stored one. */
const secret = z.string({ error: PSA_MSG.required }).trim().min(1, PSA_MSG.required).max(500).optional();
const psaId = z.number({ error: 'Must be a whole number' }).int('Must be a whole number').positive('Must be a whole number');

/** Our priority → the PSA's priority: ConnectWise by name, Autotask and HaloPSA by id. */
const namedPriorities = z.partialRecord(AlertPriority, text(100)).optional();
const idPriorities = z.partialRecord(AlertPriority, psaId).optional();

export const ConnectWiseSettings = z.object({
  siteUrl: httpUrl,
  companyId: text(100),
  publicKey: text(100),
  privateKey: secret,
  clientId: secret,
  board: text(100),
  newStatus: text(100),
  closedStatus: text(100),
  priorities: namedPriorities,
});
export const AutotaskSettings = z.object({
  username: text(200),
  secret,
  integrationCode: secret,
  queueId: psaId,
  newStatus: psaId,
  completeStatus: psaId,
  priorities: idPriorities,
});
export const HaloPsaSettings = z.object({
  baseUrl: httpUrl,
  clientId: text(200),
  clientSecret: secret,
  ticketTypeId: psaId,
  newStatusId: psaId,
  closedStatusId: psaId,
  priorities: idPriorities,
});
export type ConnectWiseSettings = z.infer<typeof ConnectWiseSettings>;
export type AutotaskSettings = z.infer<typeof AutotaskSettings>;
export type HaloPsaSettings = z.infer<typeof HaloPsaSettings>;

/** The PSA's default priority names or ids for ours (Critical→1, High→2, Medium→3, Low and Info→4). */
export const PSA_DEFAULT_PRIORITIES = {
  connectwise: { critical: 'Priority 1 - Emergency Response', high: 'Priority 2 - Quick Response', medium: 'Priority 3 - Normal Response', low: 'Priority 4 - Schedule Maintenance', info: 'Priority 4 - Schedule Maintenance' },
  autotask: { critical: 1, high: 2, medium: 3, low: 4, info: 4 },
  halopsa: { critical: 1, high: 2, medium: 3, low: 4, info: 4 },
} as const;

export const PSA_TRIGGER_MODES = ['on_trigger', 'unacknowledged_after'] as const;
/** A recurrence of a dedup key within 24 h of its ticket's closing: the ticket reopened, or a new one linked to it. */
export const PSA_RECURRENCE_MODES = ['reopen', 'link'] as const;
/** What a ticket closed in the PSA does to its alert. */
export const PSA_INBOUND_CLOSE = ['resolve', 'acknowledge'] as const;

export const PsaRules = z
  .object({
    priorities: z.array(AlertPriority, { error: PSA_MSG.prioritiesRequired }).min(1, PSA_MSG.prioritiesRequired).max(5).default(['critical', 'high']),
    triggerMode: z.enum(PSA_TRIGGER_MODES, { error: "Must be 'on_trigger' or 'unacknowledged_after'" }).default('on_trigger'),
    /** With `unacknowledged_after`: the ticket opens when the alert is still unacknowledged this many minutes after it opened. */
    unacknowledgedMinutes: z.number({ error: PSA_MSG.minutesRequired }).int(PSA_MSG.minutesRequired).min(1, PSA_MSG.minutesRequired).max(PSA_LIMITS.maxMinutes, PSA_MSG.minutesRequired).nullable().default(null),
    /** The PSA company of alerts whose client is not mapped (or that have none); null: no ticket for them. */
    catchAllCompanyId: z.string().trim().min(1, PSA_MSG.required).max(100).nullable().default(null),
    recurrence: z.enum(PSA_RECURRENCE_MODES, { error: "Must be 'reopen' or 'link'" }).default('reopen'),
    inboundClose: z.enum(PSA_INBOUND_CLOSE, { error: "Must be 'resolve' or 'acknowledge'" }).default('resolve'),
  })
  .refine((r) => r.triggerMode !== 'unacknowledged_after' || r.unacknowledgedMinutes !== null, { message: PSA_MSG.minutesRequired, path: ['unacknowledgedMinutes'] });
export type PsaRules = z.infer<typeof PsaRules>;

const common = { name: requiredString(PSA_MSG.nameRequired, 100), enabled: z.boolean().optional(), rules: PsaRules.optional() };
export const PsaConnectionInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('connectwise'), settings: ConnectWiseSettings, ...common }),
    z.object({ type: z.literal('autotask'), settings: AutotaskSettings, ...common }),
    z.object({ type: z.literal('halopsa'), settings: HaloPsaSettings, ...common }),
  ],
  { error: PSA_MSG.typeInvalid },
);
export type PsaConnectionInput = z.infer<typeof PsaConnectionInput>;

/** The settings as answered: every field but the secrets. */
export const PsaSettingsShown = z.record(z.string(), z.unknown());

export const PsaConnection = z
  .object({
    id: z.string(),
    type: z.enum(PSA_TYPES),
    name: z.string(),
    enabled: z.boolean(),
    settings: PsaSettingsShown,
    /** Which secrets are stored (each true); their values are never answered. */
    secretsSet: z.record(z.string(), z.boolean()),
    rules: z.object({
      priorities: z.array(AlertPriority),
      triggerMode: z.enum(PSA_TRIGGER_MODES),
      unacknowledgedMinutes: z.number().int().nullable(),
      catchAllCompanyId: z.string().nullable(),
      recurrence: z.enum(PSA_RECURRENCE_MODES),
      inboundClose: z.enum(PSA_INBOUND_CLOSE),
    }),
    /** Where the PSA tells us of ticket changes (ConnectWise's callback, HaloPSA's webhook): a signed URL of ours. */
    inboundUrl: z.string().nullable(),
    lastError: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
    /** Calls to the PSA waiting or being retried. */
    queueLength: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'PsaConnection' });
export type PsaConnection = z.infer<typeof PsaConnection>;
export const PsaConnectionList = z.object({ items: z.array(PsaConnection) });

export const PsaTestResult = z.object({ ok: z.boolean(), message: z.string() });
export type PsaTestResult = z.infer<typeof PsaTestResult>;

export const PsaCompany = z.object({ id: z.string(), name: z.string(), identifier: z.string().nullable() });
export type PsaCompany = z.infer<typeof PsaCompany>;
export const PsaCompaniesQuery = z.object({ search: z.string().trim().max(100).optional() });

export const PsaCompanyMapItem = z.object({
  clientId: requiredString(PSA_MSG.unknownClient, 100),
  companyId: requiredString(PSA_MSG.required, 100),
  companyName: z.string().max(200).optional(),
});
export const PsaCompanyMapInput = z.object({ items: z.array(PsaCompanyMapItem).max(2000) });
export type PsaCompanyMapInput = z.infer<typeof PsaCompanyMapInput>;

/** Each client of the tenant with its mapped company, or the suggestion made from its name and aliases. */
export const PsaCompanyMap = z.object({
  items: z.array(
    z.object({
      clientId: z.string(),
      clientName: z.string(),
      companyId: z.string().nullable(),
      companyName: z.string().nullable(),
      suggested: z.object({ companyId: z.string(), companyName: z.string(), matchedOn: z.string() }).nullable(),
    }),
  ),
});
export type PsaCompanyMap = z.infer<typeof PsaCompanyMap>;
export const PsaCompanyList = z.object({ items: z.array(PsaCompany) });

export const PsaParams = z.object({ tenantId: z.string().min(1).max(100), connectionId: z.string().min(1).max(100) });
/** The inbound URL's one secret segment: `{connectionId}.{signature}` (log lines redact it whole). */
export const PsaInboundParams = z.object({ token: z.string().min(1).max(300) });

