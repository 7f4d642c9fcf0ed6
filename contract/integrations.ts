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
});
export const UpdateIntegrationBody = z.object({
  name: z.string({ error: INTEGRATION_MSG.nameRequired }).trim().min(1, INTEGRATION_MSG.nameRequired).max(120, 'Must be at most 120 characters').optional(),
  clientId: clientRef.optional(),
  escalationPolicyId: escalationPolicyRef.optional(),
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
