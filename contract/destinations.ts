import { z } from 'zod';
import { requiredString } from './common.ts';
import { AlertPriority } from './alerts.ts';

/**
 * Destinations of a tenant (issue 29): where its events are posted. Outbound webhooks after the Standard Webhooks
 * spec now (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * keyed by the base64 part of the `whsec_…` secret); Teams and Slack are refused until they ship.
 */
export const DESTINATION_TYPES = ['webhook', 'teams', 'slack'] as const;
export const DestinationType = z.enum(DESTINATION_TYPES, { error: "Type must be 'webhook', 'teams' or 'slack'" });
export type DestinationType = z.infer<typeof DestinationType>;

export const DESTINATION_EVENTS = ['alert.triggered', 'alert.acknowledged', 'alert.resolved'] as const;
export const DestinationEvent = z.enum(DESTINATION_EVENTS);
export type DestinationEvent = z.infer<typeof DestinationEvent>;
/** Events a test delivery may carry besides the subscribed ones. */
export const TEST_EVENT = 'destination.test';

export const DESTINATION_EVENT_LABELS: Record<DestinationEvent, string> = {
  'alert.triggered': 'Alert triggered',
  'alert.acknowledged': 'Alert acknowledged',
  'alert.resolved': 'Alert resolved',
};

export const DESTINATION_LIMITS = {
  perTenant: 50,
  urlMax: 2000,
  /** The answer's part kept in the delivery log. */
  excerptBytes: 1024,
  /** The most of an answer read (beyond it the connection is cut). */
  answerBytes: 256 * 1024,
  timeoutMs: 10_000,
  /** Waits before each retry after the first attempt (Standard Webhooks' schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h. */
  retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000],
  deliveriesShown: 50,
} as const;

export const DESTINATION_MSG = {
  nameRequired: 'Destination name is required',
  urlInvalid: 'URL must be an http:// or https:// address',
  urlRequired: 'URL is required',
  eventsRequired: 'Choose at least one event',
  notYetAvailable: 'Microsoft Teams and Slack destinations are not yet available',
  notFound: 'Destination not found',
  deliveryNotFound: 'Delivery not found',
  tooMany: `An organization may have at most ${DESTINATION_LIMITS.perTenant} destinations`,
  unknownClient: 'Client not found',
  disabledGone: 'Disabled: the endpoint answered 410 Gone',
  secretShownOnce: 'Copy this signing secret now: it is shown only once.',
  none: 'No destinations yet. Add a webhook to post alerts to your own tools (a PSA, a chat bridge, an automation).',
  noDeliveries: 'Nothing sent to this destination yet.',
  loadFailed: 'Failed to load destinations. Please try again.',
  rotateConfirm: 'A new signing secret replaces this one. For 24 hours every message carries both signatures, so the receiver can switch to the new secret without missing any.',
  deleteConfirm: (name: string) => `Delete the destination '${name}'? Nothing more is sent to it, and its delivery log goes too.`,
} as const;

export const DestinationFilter = z
  .object({
    clientIds: z.array(z.string().min(1).max(100)).max(100).optional(),
    priorities: z.array(AlertPriority).max(5).optional(),
  })
  .strict();
export type DestinationFilter = z.infer<typeof DestinationFilter>;

const httpUrl = z
  .string({ error: DESTINATION_MSG.urlRequired })
  .trim()
  .min(1, DESTINATION_MSG.urlRequired)
  .max(DESTINATION_LIMITS.urlMax)
  .refine((u) => {
    try {
      const p = new URL(u);
      return (p.protocol === 'https:' || p.protocol === 'http:') && !!p.hostname && !p.username && !p.password;
    } catch {
      return false;
    }
  }, DESTINATION_MSG.urlInvalid);

export const DestinationInput = z.object({
  type: DestinationType.default('webhook'),
  name: requiredString(DESTINATION_MSG.nameRequired, 100),
  url: httpUrl,
  events: z.array(DestinationEvent, { error: DESTINATION_MSG.eventsRequired }).min(1, DESTINATION_MSG.eventsRequired).max(DESTINATION_EVENTS.length),
  filter: DestinationFilter.optional(),
  enabled: z.boolean().optional(),
});
export type DestinationInput = z.infer<typeof DestinationInput>;

export const Destination = z.object({
  id: z.string(),
  type: DestinationType,
  name: z.string(),
  url: z.string().nullable(),
  events: z.array(DestinationEvent),
  filter: DestinationFilter,
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  /** The signing secret's first characters, to tell which one a receiver has. */
  secretPrefix: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Destination = z.infer<typeof Destination>;

export const DestinationList = z.object({ items: z.array(Destination) });
export type DestinationList = z.infer<typeof DestinationList>;

/** The creation's answer: the only time the secret is shown. */
export const DestinationWithSecret = Destination.extend({ secret: z.string() });
export type DestinationWithSecret = z.infer<typeof DestinationWithSecret>;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const Delivery = z.object({
  id: z.string(),
  eventType: z.string(),
  messageId: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveryList = z.object({ items: z.array(Delivery) });
export type DeliveryList = z.infer<typeof DeliveryList>;

export const DestinationParams = z.object({ tenantId: z.string().min(1).max(100), destinationId: z.string().min(1).max(100) });
export const DeliveryParams = DestinationParams.extend({ deliveryId: z.string().min(1).max(100) });
