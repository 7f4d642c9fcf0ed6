import { z } from 'zod';
import { requiredString } from './common.ts';
import { AlertPriority } from './alerts.ts';

/**
 * Destinations of a tenant (issue 29): where its events are posted. Outbound webhooks after the Standard Webhooks
 * spec (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * keyed by the base64 part of the `whsec_…` secret); Microsoft Teams through a Workflows URL (an Adaptive Card);
 * Slack as an app (a bot token, a channel).
 */
export const DESTINATION_TYPES = ['webhook', 'teams', 'slack'] as const;
export const DestinationType = z.enum(DESTINATION_TYPES, { error: "Type must be 'webhook', 'teams' or 'slack'" });
export type DestinationType = z.infer<typeof DestinationType>;
export const DESTINATION_TYPE_LABELS: Record<DestinationType, string> = { teams: 'Microsoft Teams', slack: 'Slack', webhook: 'Webhook' };

export const DESTINATION_EVENTS = [
  'alert.triggered',
  'alert.acknowledged',
  'alert.resolved',
  'alert.assigned',
  'heartbeat.down',
  'heartbeat.up',
  // Each escalation level after the first (a level naming destinations posts to them at any level: the same event).
  'alert.escalated',
  // Approval requests (payload: id, type, title, status, requester, decider): made, and finally approved, rejected or expired.
  'approval.requested',
  'approval.decided',
] as const;
export const DestinationEvent = z.enum(DESTINATION_EVENTS);
export type DestinationEvent = z.infer<typeof DestinationEvent>;
/** Events a test delivery may carry besides the subscribed ones. */
export const TEST_EVENT = 'destination.test';

export const DESTINATION_EVENT_LABELS: Record<DestinationEvent, string> = {
  'alert.triggered': 'Alert triggered',
  'alert.acknowledged': 'Alert acknowledged',
  'alert.resolved': 'Alert resolved',
  'alert.assigned': 'Alert assigned',
  'heartbeat.down': 'Heartbeat down',
  'heartbeat.up': 'Heartbeat up again',
  'alert.escalated': 'Alert escalated to the next level',
  'approval.requested': 'Approval requested',
  'approval.decided': 'Approval decided (approved, rejected or expired)',
};

/** Events about alerts: a destination's filter (clients, priorities) applies to these only. */
export const isAlertEvent = (event: string) => event.startsWith('alert.') || event.startsWith('heartbeat.');

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
  /** A destination whose every delivery failed for this long is disabled and its owners told. */
  failingDisableMs: 3 * 86_400_000,
} as const;

export const DESTINATION_MSG = {
  nameRequired: 'Destination name is required',
  urlInvalid: 'URL must be an http:// or https:// address',
  urlRequired: 'URL is required',
  eventsRequired: 'Choose at least one event',
  teamsConnectorRetired:
    'Microsoft retired Office 365 connectors (webhook.office.com): in Teams, create a Workflows "When a Teams webhook request is received" flow and use its URL',
  teamsUrlHost: 'Use the URL of a Teams Workflows flow (a logic.azure.com or powerplatform.com address, https)',
  channelRequired: 'Slack channel is required',
  channelInvalid: 'Slack channel must be a channel ID (C0123ABCD) or name (#noc)',
  botTokenRequired: 'Slack bot token is required',
  botTokenInvalid: 'A Slack bot token starts with xoxb-',
  noSigningSecret: 'Only webhooks have a signing secret',
  typeFixed: "A destination's type cannot be changed: add a new destination instead",
  slackLinkExplain:
    'Slack buttons act as the Alertdesk member linked to the Slack user who presses them. The first time someone presses one, Slack shows them a "link your account" link: opened while signed in to Alertdesk, it links their Slack user to their account here, once.',
  slackLinkPrompt: (url: string) => `Your Slack user is not linked to an Alertdesk account yet. Link it (once) here: ${url}`,
  slackNotMember: 'Your linked Alertdesk account is no longer a member of this organization.',
  linkInvalid: 'This link is invalid or has expired.',
  linkUsed: 'This link has already been used.',
  linkSignIn: 'Sign in to Alertdesk to continue.',
  linkedDone: 'Your Slack user is now linked to your Alertdesk account.',
  actionDone: (action: string) => `Alert ${action}.`,
  /** How an action from a chat is attributed in the alert's timeline. */
  notFound: 'Destination not found',
  deliveryNotFound: 'Delivery not found',
  tooMany: `An organization may have at most ${DESTINATION_LIMITS.perTenant} destinations`,
  unknownClient: 'Client not found',
  disabledGone: 'Disabled: the endpoint answered 410 Gone',
  disabledFailing: 'Disabled: every delivery failed for 3 days',
  disabledMailSubject: (name: string) => `Alertdesk: the destination '${name}' was disabled`,
  disabledMailText: (person: string, name: string, why: string, link: string) =>
    `Hello ${person},\n\n${why} Alertdesk disabled the destination '${name}': nothing more is sent to it.\n\nCheck the delivery log, fix it and turn the destination on again:\n${link}\n`,
  failingSince: (since: string) => `Every delivery has failed since ${since.slice(0, 16).replace('T', ' ')} UTC.`,
  disabledSlackToken: 'Disabled: Slack says the bot token is revoked or invalid; paste a new bot token and turn it on again',
  slackTokenWhy: 'Slack says the bot token of this destination is revoked or invalid.',
  secretShownOnce: 'Copy this signing secret now: it is shown only once.',
  none: 'No destinations yet. Post alerts to a Microsoft Teams or Slack channel, or add a webhook for your own tools (a PSA, a chat bridge, an automation).',
  noDeliveries: 'Nothing sent to this destination yet.',
  loadFailed: 'Failed to load destinations. Please try again.',
  rotateConfirm: 'A new signing secret replaces this one. For 24 hours every message carries both signatures, so the receiver can switch to the new secret without missing any.',
  deleteConfirm: (name: string) => `Delete the destination '${name}'? Nothing more is sent to it, and its delivery log goes too.`,
  /** An escalation level's destinations (issue 29: "post to #noc-globex at level 1"). */
  levelDestinationsUnknown: 'Every destination must be one of this organization',
  levelPostsLabel: 'Also post to',
  levelPostsHelp: 'Destinations that get a post of the alert when this level is paged (not while it is snoozed or in maintenance, nor once acknowledged).',
  levelPostsNone: 'No destinations yet: add them under Tenant Admin → Destinations.',
  /** A post of an escalation level the alert no longer needs, when its turn to be sent came. */
  notSentAcknowledged: 'Not sent: the alert was acknowledged, resolved or snoozed first',
  approvalHeadline: (event: string, status: string) => (event === 'approval.requested' ? 'Approval requested' : `Approval ${status}`),
} as const;

/** Slack's errors as the delivery log explains them. */
export const SLACK_ERRORS = {
  invalid_auth: 'Slack refused the bot token: paste a valid bot token (xoxb-…) in this destination',
  not_authed: 'Slack refused the bot token: paste a valid bot token (xoxb-…) in this destination',
  token_revoked: 'The bot token was revoked: reinstall the app and paste its new bot token',
  account_inactive: 'The bot token was revoked: reinstall the app and paste its new bot token',
  channel_not_found: 'Slack cannot find the channel: check its ID or name, and that the app can see it',
  not_in_channel: 'The app is not in the channel: invite it there (/invite @app) and send a test message',
  is_archived: 'The channel is archived',
  missing_scope: "The app lacks the chat:write scope: add it and reinstall the app",
  ratelimited: 'Slack is rate limiting the app: sent again after its Retry-After',
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

/** Hosts of the retired Office 365 connectors' incoming webhooks. */
export const isRetiredTeamsWebhook = (url: string) => {
  try {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    return host === 'webhook.office.com' || host.endsWith('.webhook.office.com') || ((host === 'outlook.office.com' || host === 'outlook.office365.com') && /^\/webhook(b2)?\//i.test(u.pathname));
  } catch {
    return false;
  }
};

/** Hosts of Teams Workflows ("When a Teams webhook request is received") and Power Platform / Power Automate URLs. */
export const TEAMS_WORKFLOW_HOST_SUFFIXES = ['.logic.azure.com', '.logic.azure.us', '.powerplatform.com', '.powerautomate.com'] as const;
export const isTeamsWorkflowsUrl = (url: string) => {
  try {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    return u.protocol === 'https:' && TEAMS_WORKFLOW_HOST_SUFFIXES.some((s) => host.endsWith(s));
  } catch {
    return false;
  }
};

export const DestinationInput = z
  .object({
    type: DestinationType.default('webhook'),
    name: requiredString(DESTINATION_MSG.nameRequired, 100),
    /** Webhooks and Teams. */
    url: httpUrl.optional(),
    /** Slack: a channel ID or name. */
    channel: z.string().trim().max(81).optional(),
    /** Slack: the app's bot token (`xoxb-…`); required at creation, kept when left out of an update; never returned. */
    botToken: z.string().trim().max(500).optional(),
    events: z.array(DestinationEvent, { error: DESTINATION_MSG.eventsRequired }).min(1, DESTINATION_MSG.eventsRequired).max(DESTINATION_EVENTS.length),
    filter: DestinationFilter.optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'slack') {
      if (!v.channel) ctx.addIssue({ code: 'custom', path: ['channel'], message: DESTINATION_MSG.channelRequired });
      else if (!/^(#?[a-z0-9][a-z0-9._-]{0,79}|[CGD][A-Z0-9]{6,20})$/.test(v.channel)) ctx.addIssue({ code: 'custom', path: ['channel'], message: DESTINATION_MSG.channelInvalid });
      if (v.botToken && !/^xoxb-[A-Za-z0-9-]{10,}$/.test(v.botToken)) ctx.addIssue({ code: 'custom', path: ['botToken'], message: DESTINATION_MSG.botTokenInvalid });
      return;
    }
    if (v.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: DESTINATION_MSG.urlRequired });
    else if (v.type === 'teams' && isRetiredTeamsWebhook(v.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: DESTINATION_MSG.teamsConnectorRetired });
  });
export type DestinationInput = z.infer<typeof DestinationInput>;

export const Destination = z.object({
  id: z.string(),
  type: DestinationType,
  name: z.string(),
  url: z.string().nullable(),
  /** Slack: the channel posted to. */
  channel: z.string().nullable(),
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

/** The creation's answer: the only time a webhook's signing secret is shown (Teams and Slack have none). */
export const DestinationWithSecret = Destination.extend({ secret: z.string().optional() });
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

/** A chat post's one-time link (a Teams card's button, a Slack account link), as the page opening it shows it. */
export const ChatLinkParam = z.object({ token: z.string().min(20).max(100) });
export const ChatLinkInfo = z.object({
  kind: z.enum(['alert.acknowledge', 'alert.resolve', 'slack.link']),
  tenantName: z.string(),
  alertId: z.string().nullable(),
  alertTitle: z.string().nullable(),
  alertStatus: z.string().nullable(),
  usable: z.boolean(),
});
export type ChatLinkInfo = z.infer<typeof ChatLinkInfo>;
export const ChatLinkResult = z.object({ message: z.string(), alertId: z.string().nullable() });
export type ChatLinkResult = z.infer<typeof ChatLinkResult>;
