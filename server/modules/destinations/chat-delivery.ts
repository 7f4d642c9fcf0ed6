import { TEST_EVENT } from '../../../contract/destinations.ts';
import { viaPhrase, type AlertDetail } from '../../../contract/alerts.ts';
import type { DB } from '../../db/database.ts';
import type { DestinationDeliveriesTable, DestinationsTable } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { getAlertDetail } from '../alerts/alerts.service.ts';
import { chatLinkUrl, issueAlertLinks, type ChatAction } from './chat-actions.ts';
import { approvalNotice, chatAlert, shownState, type ApprovalEventData } from './chat-message.ts';
import * as chat from './chat.repository.ts';
import type { OutboundPolicy, PostResult } from './outbound-post.ts';
import { callSlack, slackAlertMessage, slackClient, slackTestMessage, type SlackResult } from './slack.ts';
import { postTeams, teamsAlertCard, teamsNoticeCard, teamsTestCard } from './teams.ts';

/** What one attempt came to; `permanent`: not worth retrying (Slack refused the token or channel, the alert is gone). */
export type Outcome = PostResult & { permanent?: boolean; revoked?: boolean };

export interface ChatDeliveryDeps {
  db: DB;
  outbound: OutboundPolicy;
  publicUrl: string;
  slack: { apiUrl: string };
}

const gone = (error: string): Outcome => ({ status: null, retryAfter: null, latencyMs: 0, excerpt: null, error, guardRefused: false, permanent: true });

/** Where the last entry of a kind came from, as "from Slack " (empty when from the app itself). */
const from = (d: AlertDetail, kind: 'acknowledged' | 'resolved') => viaPhrase(d.timeline.findLast((e) => e.kind === kind)?.detail.via);

/** The level an `alert.escalated` delivery is about (null for any other delivery). */
export function levelOf(delivery: Pick<DestinationDeliveriesTable, 'payload'>): number | null {
  const level = (JSON.parse(delivery.payload) as { type?: string; data?: { escalation?: { level?: unknown } } }).data?.escalation?.level;
  return typeof level === 'number' ? level : null;
}

/**
 * What the post says above the alert: its state now, and who brought it there ("Acknowledged from Slack by Jane");
 * a level's post of an alert still new says which level it reached.
 */
function headline(d: AlertDetail, level: number | null = null): string {
  switch (d.alert.status) {
    case 'new':
      return level && level > 1 ? `Escalated to level ${level}` : 'New alert';
    case 'acknowledged':
      return d.acknowledgedByName ? `Acknowledged ${from(d, 'acknowledged')}by ${d.acknowledgedByName}` : 'Acknowledged';
    case 'in_progress':
      return 'In progress';
    case 'resolved':
      return d.resolvedByName ? `Resolved ${from(d, 'resolved')}by ${d.resolvedByName}` : 'Resolved';
    default:
      return d.closedByName ? `Closed by ${d.closedByName}` : 'Closed';
  }
}

/** The alert a delivery is about, as it is now (a post shows the current state); null for a test, 'gone' when deleted. */
async function alertOf(db: DB, tenantId: string, delivery: DestinationDeliveriesTable): Promise<AlertDetail | null | 'gone'> {
  const payload = JSON.parse(delivery.payload) as { type: string; data: { alert?: { id: string } } };
  if (payload.type === TEST_EVENT || !payload.data.alert) return null;
  try {
    return await getAlertDetail(db, tenantId, payload.data.alert.id);
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return 'gone';
    throw err;
  }
}

/** An approval event's notice (null for any other delivery). */
function noticeOf(delivery: DestinationDeliveriesTable, publicUrl: string) {
  const payload = JSON.parse(delivery.payload) as { type: string; data: { approval?: ApprovalEventData } };
  return payload.type.startsWith('approval.') && payload.data.approval ? approvalNotice(payload.type, payload.data.approval, publicUrl) : null;
}

const sentBy = (delivery: DestinationDeliveriesTable) => (JSON.parse(delivery.payload) as { data: { sentBy?: string } }).data.sentBy ?? 'Alertdesk';

/** A Teams card for the delivery, with fresh one-time Acknowledge / Resolve links, posted to the Workflows URL. */
export async function sendTeams(deps: ChatDeliveryDeps, dest: DestinationsTable, delivery: DestinationDeliveriesTable, now: Date): Promise<Outcome> {
  const notice = noticeOf(delivery, deps.publicUrl);
  if (notice) return postTeams(dest.url!, teamsNoticeCard(notice.headline, notice.text, notice.openUrl), deps.outbound);
  const detail = await alertOf(deps.db, dest.tenant_id, delivery);
  if (detail === 'gone') return gone('The alert no longer exists');
  if (!detail) return postTeams(dest.url!, teamsTestCard(dest.name, sentBy(delivery), `${deps.publicUrl}/app/dashboard`), deps.outbound);
  const a = chatAlert(detail.alert, deps.publicUrl, now);
  const actions: ChatAction[] = [...(a.canAcknowledge ? (['acknowledge'] as const) : []), ...(a.canResolve ? (['resolve'] as const) : [])];
  const tokens = await issueAlertLinks(deps.db, { tenantId: dest.tenant_id, destinationId: dest.id, alertId: a.id, now, actions });
  const url = (t?: string) => (t ? chatLinkUrl(deps.publicUrl, t) : undefined);
  return postTeams(dest.url!, teamsAlertCard(a, headline(detail, levelOf(delivery)), { acknowledge: url(tokens.acknowledge), resolve: url(tokens.resolve) }), deps.outbound);
}

const outcomeOf = (r: SlackResult): Outcome => ({ status: r.status, retryAfter: r.retryAfter, latencyMs: r.latencyMs, excerpt: r.excerpt, error: r.error, guardRefused: false, permanent: r.permanent, revoked: r.revoked });

/**
 * A Slack message for the delivery: the alert's message updated (`chat.update`) when this destination posted one,
 * else posted (`chat.postMessage`) and remembered, so later changes update it.
 */
export async function sendSlack(deps: ChatDeliveryDeps, dest: DestinationsTable, delivery: DestinationDeliveriesTable, botToken: string, now: Date): Promise<Outcome> {
  const client = slackClient(deps.slack.apiUrl, botToken);
  const notice = noticeOf(delivery, deps.publicUrl);
  if (notice) return outcomeOf(await callSlack(client, 'chat.postMessage', { channel: dest.channel, text: `${notice.headline}: ${notice.text} ${notice.openUrl}` }));
  const detail = await alertOf(deps.db, dest.tenant_id, delivery);
  if (detail === 'gone') return gone('The alert no longer exists');
  if (!detail) return outcomeOf(await callSlack(client, 'chat.postMessage', { channel: dest.channel, ...slackTestMessage(dest.name, sentBy(delivery)) }));
  const message = slackAlertMessage(chatAlert(detail.alert, deps.publicUrl, now), headline(detail, levelOf(delivery)), dest.id);
  const at = now.toISOString();
  const remember = (channel: string, ts: string) =>
    chat.saveSlackMessage(deps.db, { tenant_id: dest.tenant_id, destination_id: dest.id, alert_id: detail.alert.id, channel, ts, state: shownState(detail.alert), created_at: at, updated_at: at });
  const posted = await chat.findSlackMessage(deps.db, dest.tenant_id, dest.id, detail.alert.id);
  if (posted) {
    const updated = await callSlack(client, 'chat.update', { channel: posted.channel, ts: posted.ts, ...message });
    if (updated.ok) await remember(posted.channel, posted.ts);
    // A message deleted in Slack meanwhile is posted anew.
    if (updated.code !== 'message_not_found') return outcomeOf(updated);
  }
  const r = await callSlack(client, 'chat.postMessage', { channel: dest.channel, ...message });
  if (r.ok && r.ts) await remember(r.channel ?? dest.channel!, r.ts);
  return outcomeOf(r);
}
