import { ErrorCode, LogLevel, WebClient, type WebAPICallError } from '@slack/web-api';
import { DESTINATION_LIMITS, SLACK_ERRORS } from '../../../contract/destinations.ts';
import type { ChatAlert } from './chat-message.ts';

/**
 * Slack as an app (issue 29): `chat.postMessage` with Block Kit (and a text fallback) through the Web API client,
 * `chat.update` of the same message when the alert changes. The client's own retries are off (the delivery job
 * retries on its schedule), and a rate limit comes back as an answer (its Retry-After honoured by the job).
 */
export const SLACK_ACTIONS = { acknowledge: 'alertdesk_acknowledge', resolve: 'alertdesk_resolve', open: 'alertdesk_open' } as const;

/** A button's value: which destination posted the message and for which alert. */
export const buttonValue = (destinationId: string, alertId: string) => `${destinationId}:${alertId}`;

/** Slack's mrkdwn needs &, < and > escaped (everything else is text). */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface SlackMessage {
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
}

/** An alert's message: the fallback text, and a block in the priority's colour with facts and the three buttons. */
export function slackAlertMessage(a: ChatAlert, headline: string, destinationId: string): SlackMessage {
  const buttons = [
    ...(a.canAcknowledge ? [{ type: 'button', action_id: SLACK_ACTIONS.acknowledge, text: { type: 'plain_text', text: 'Acknowledge' }, style: 'primary', value: buttonValue(destinationId, a.id) }] : []),
    ...(a.canResolve ? [{ type: 'button', action_id: SLACK_ACTIONS.resolve, text: { type: 'plain_text', text: 'Resolve' }, value: buttonValue(destinationId, a.id) }] : []),
    { type: 'button', action_id: SLACK_ACTIONS.open, text: { type: 'plain_text', text: 'Open' }, url: a.openUrl },
  ];
  const fields = [
    ...(a.client ? [{ type: 'mrkdwn', text: `*Client*\n${esc(a.client)}` }] : []),
    { type: 'mrkdwn', text: `*Priority*\n${a.priorityLabel}` },
    { type: 'mrkdwn', text: `*Status*\n${a.statusLabel}` },
    { type: 'mrkdwn', text: `*Assignee*\n${esc(a.assignee ?? 'Unassigned')}` },
  ];
  const blocks = [
    { type: 'section', text: { type: 'mrkdwn', text: `*<${a.openUrl}|${esc(a.title)}>*${a.description ? `\n${esc(a.description)}` : ''}` } },
    { type: 'section', fields },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `${esc(headline)} · ${a.age}` }] },
    { type: 'actions', block_id: 'alertdesk_actions', elements: buttons },
  ];
  return {
    text: `[${a.priorityLabel}] ${a.client ? `${a.client}: ` : ''}${a.title} (${a.statusLabel})`,
    attachments: [{ color: a.colour, blocks }],
  };
}

export const slackTestMessage = (destinationName: string, sentBy: string): SlackMessage => ({
  text: `Alertdesk test message: alerts for the destination '${destinationName}' will be posted to this channel. Sent by ${sentBy}.`,
});

export interface SlackResult {
  ok: boolean;
  /** The message's channel ID and ts (after a post or update). */
  channel?: string;
  ts?: string;
  /** As a delivery's outcome: the HTTP status when there was one (429 when rate limited), else null. */
  status: number | null;
  retryAfter: string | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
  /** Slack's error code (`invalid_auth`, `channel_not_found`, `message_not_found`, …). */
  code: string | null;
  /** Not worth retrying (a platform error other than Slack's own trouble). */
  permanent: boolean;
  /** The bot token will never work again (revoked, invalid): the destination is disabled. */
  revoked?: boolean;
}

/** Platform errors that are Slack's passing trouble (worth a retry). */
const TRANSIENT = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited']);
/** Answers that mean the bot token will never work again: the destination is disabled (and its owners told). */
const REVOKED = new Set(['token_revoked', 'account_inactive', 'invalid_auth', 'not_authed']);

export function slackClient(apiUrl: string, token: string) {
  // Methods are resolved against the base URL: without its last slash, `…/api` + `chat.update` would lose `api`.
  return new WebClient(token, { slackApiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, timeout: DESTINATION_LIMITS.timeoutMs, logLevel: LogLevel.ERROR });
}

/** One Web API call, its outcome in the delivery log's terms (never throws). */
export async function callSlack(client: WebClient, method: 'chat.postMessage' | 'chat.update' | 'chat.postEphemeral', args: Record<string, unknown>): Promise<SlackResult> {
  const started = Date.now();
  const base = { ok: false, status: null, retryAfter: null, excerpt: null, error: null, code: null, permanent: false };
  try {
    const res = (await client.apiCall(method, args)) as { channel?: string; ts?: string };
    return { ...base, ok: true, status: 200, latencyMs: Date.now() - started, channel: res.channel, ts: res.ts, excerpt: JSON.stringify({ ok: true, channel: res.channel, ts: res.ts }) };
  } catch (e) {
    const err = e as WebAPICallError;
    const latencyMs = Date.now() - started;
    if (err.code === ErrorCode.RateLimitedError) return { ...base, status: 429, retryAfter: String(err.retryAfter), latencyMs, code: 'ratelimited', error: SLACK_ERRORS.ratelimited, excerpt: '{"ok":false,"error":"ratelimited"}' };
    if (err.code === ErrorCode.PlatformError) {
      const code = err.data.error;
      const explained = (SLACK_ERRORS as Record<string, string>)[code];
      return { ...base, status: null, latencyMs, code, permanent: !TRANSIENT.has(code), revoked: REVOKED.has(code), error: explained ? `${code}: ${explained}` : `Slack answered ${code}`, excerpt: JSON.stringify({ ok: false, error: code }).slice(0, DESTINATION_LIMITS.excerptBytes) };
    }
    if (err.code === ErrorCode.HTTPError) {
      const ra = err.headers?.['retry-after'];
      return { ...base, status: err.statusCode, retryAfter: typeof ra === 'string' ? ra : null, latencyMs, error: `Slack answered HTTP ${err.statusCode}` };
    }
    return { ...base, latencyMs, error: err instanceof Error ? err.message.slice(0, 300) : 'Slack could not be reached' };
  }
}
