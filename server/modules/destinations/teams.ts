import { isTeamsWorkflowsUrl } from '../../../contract/destinations.ts';
import { isAllowed, refusedHost } from '../../notifications/public-address.ts';
import type { ChatAlert } from './chat-message.ts';
import { postJson, type OutboundPolicy, type PostResult } from './outbound-post.ts';

/**
 * Microsoft Teams through a Workflows "When a Teams webhook request is received" URL (issue 29): an Adaptive Card
 * (schema 1.4) in a `message` envelope, answered 202 Accepted. Workflows cards cannot post back, so the buttons are
 * `Action.OpenUrl` to one-time links (chat-actions.ts). Sent through the same address guard as webhooks.
 */

/**
 * Whether a Teams URL may be saved: a Workflows / Power Platform host over https, or a host the operator allowed
 * although private (OUTBOUND_ALLOW_PRIVATE: a self-hoster's relay; the tests' stand-in).
 */
export function teamsUrlAllowed(url: string, policy: Pick<OutboundPolicy, 'allowPrivate' | 'allowed'>): boolean {
  if (isTeamsWorkflowsUrl(url)) return true;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isAllowed(policy.allowed, host) || (policy.allowPrivate && refusedHost([], host) !== null);
}

/**
 * A Workflows URL as answered: its `sig` (the URL's own credential: whoever has it can post to the channel) hidden.
 * Saving the hidden form back keeps the stored URL.
 */
export const maskTeamsUrl = (url: string): string => url.replace(/([?&]sig=)[^&#]*/i, '$1***');

export interface TeamsLinks {
  acknowledge?: string;
  resolve?: string;
}

const card = (body: unknown[], actions: unknown[]) => ({
  type: 'message',
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', msteams: { width: 'Full' }, body, actions },
    },
  ],
});

/** The card of an alert: a band in the priority's colour, title, description, facts, and the three buttons. */
export function teamsAlertCard(a: ChatAlert, headline: string, links: TeamsLinks) {
  const facts = [
    ...(a.client ? [{ title: 'Client', value: a.client }] : []),
    { title: 'Priority', value: a.priorityLabel },
    { title: 'Status', value: a.statusLabel },
    { title: 'Age', value: a.age },
    { title: 'Assignee', value: a.assignee ?? 'Unassigned' },
  ];
  const body = [
    {
      type: 'Container',
      style: a.teamsColour === 'default' ? 'emphasis' : a.teamsColour,
      bleed: true,
      items: [{ type: 'TextBlock', text: `${a.priorityLabel.toUpperCase()}${a.client ? ` · ${a.client}` : ''} · ${headline}`, weight: 'Bolder', color: a.teamsColour, wrap: true }],
    },
    { type: 'TextBlock', text: a.title, size: 'Large', weight: 'Bolder', wrap: true },
    ...(a.description ? [{ type: 'TextBlock', text: a.description, wrap: true, maxLines: 8 }] : []),
    { type: 'FactSet', facts },
  ];
  const actions = [
    ...(links.acknowledge ? [{ type: 'Action.OpenUrl', title: 'Acknowledge', url: links.acknowledge }] : []),
    ...(links.resolve ? [{ type: 'Action.OpenUrl', title: 'Resolve', url: links.resolve }] : []),
    { type: 'Action.OpenUrl', title: 'Open', url: a.openUrl },
  ];
  return card(body, actions);
}

/** A test card: proves the URL reaches the channel. */
export function teamsTestCard(destinationName: string, sentBy: string, openUrl: string) {
  return card(
    [
      { type: 'TextBlock', text: 'Alertdesk test message', size: 'Large', weight: 'Bolder', wrap: true },
      { type: 'TextBlock', text: `Alerts for the destination '${destinationName}' will be posted to this channel. Sent by ${sentBy}.`, wrap: true },
    ],
    [{ type: 'Action.OpenUrl', title: 'Open', url: openUrl }],
  );
}

/** A card of a notice that is no alert (an approval event): a headline, a line, Open. */
export function teamsNoticeCard(headline: string, text: string, openUrl: string) {
  return card(
    [
      { type: 'TextBlock', text: headline, size: 'Large', weight: 'Bolder', wrap: true },
      { type: 'TextBlock', text, wrap: true },
    ],
    [{ type: 'Action.OpenUrl', title: 'Open', url: openUrl }],
  );
}

/** Posts a card; Workflows answers 202 (200 is taken too), anything else is judged like a webhook's answer. */
export const postTeams = (url: string, message: unknown, policy: OutboundPolicy): Promise<PostResult> => postJson(url, JSON.stringify(message), {}, policy);
