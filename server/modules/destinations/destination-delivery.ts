import { createHash, randomUUID } from 'node:crypto';
import type { Alert, AlertChange } from '../../../contract/alerts.ts';
import { DESTINATION_MSG, TEST_EVENT, type DestinationEvent, type DestinationFilter } from '../../../contract/destinations.ts';
import type { DB } from '../../db/database.ts';
import type { DestinationDeliveriesTable, DestinationsTable } from '../../db/schema.ts';
import { serverKey } from '../../db/server-keys.ts';
import type { JobsRuntime } from '../../jobs/jobs.plugin.ts';
import { enqueueJobs } from '../../jobs/jobs.repository.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { getAlertDetail, recordAlertEvent } from '../alerts/alerts.service.ts';
import { levelOf, sendSlack, sendTeams, type Outcome } from './chat-delivery.ts';
import { shownState } from './chat-message.ts';
import * as chat from './chat.repository.ts';
import { nextAfter } from './delivery-outcome.ts';
import { disableAndTell, disableIfFailingTooLong } from './failing-destinations.ts';
import type { Mailer } from '../../notifications/mailer.ts';
import { AppError } from '../../http/errors.ts';
import * as repo from './destinations.repository.ts';
import { postJson, type OutboundPolicy } from './outbound-post.ts';
import { decryptSecret, newSecretKey, webhookHeaders } from './webhook-signing.ts';

export const DELIVER_JOB = 'destinations.deliver';
/** A level of an alert's escalation fired: posted to the level's destinations and to those subscribed (level-posts.service.ts). */
export const ESCALATED_EVENT = 'alert.escalated' satisfies DestinationEvent;

export interface DeliveryDeps {
  db: DB;
  jobs: Pick<JobsRuntime, 'clock' | 'worker'>;
  outbound: OutboundPolicy;
  publicUrl: string;
  /** The tenants' enabled destinations as the fan-out reads them (destinationCache). */
  destinations: ReturnType<typeof destinationCache>;
  /** Buttons in chats act through the alert service, which tells the other instances. */
  bus: AlertBus;
  slack: { apiUrl: string; signingSecret: string | null };
  /** Tells owners of a destination disabled after three days of failures. */
  mailer?: Mailer;
}

/**
 * A tenant's enabled destinations, cached for 30 s: every write here forgets the tenant's (seen at once on
 * this instance; on another within 30 s, and a delivery to a destination disabled meanwhile is not sent).
 */
export function destinationCache(db: DB) {
  const cache = new Map<string, { at: number; list: DestinationsTable[] }>();
  return {
    async list(tenantId: string) {
      const hit = cache.get(tenantId);
      if (hit && hit.at > Date.now() - 30_000) return hit.list;
      const list = await repo.listEnabledDestinations(db, tenantId);
      if (cache.size > 10_000) cache.clear();
      cache.set(tenantId, { at: Date.now(), list });
      return list;
    },
    forget: (tenantId: string) => void cache.delete(tenantId),
  };
}

/** The server key the signing secrets are encrypted with (generated once, kept in server_keys). */
export const secretKey = (db: DB) => serverKey(db, 'destinations-secret-key', newSecretKey);

/**
 * The events an alert change may be, for destinations: its creation (and, for a heartbeat monitor's alert, the monitor
 * going down), its acknowledgement, its resolution (the monitor up again), and on any update its assignment (one event
 * per assignee: the alert says whom, eventStamp). Which of them it is, the alert decides (eventStamp null: none).
 */
export function eventsOf(change: AlertChange): DestinationEvent[] {
  const heartbeat = change.dedupKey?.startsWith('heartbeat:') ?? false;
  if (change.kind === 'created') return heartbeat ? ['alert.triggered', 'heartbeat.down'] : ['alert.triggered'];
  const events: DestinationEvent[] = ['alert.assigned'];
  if (change.status === 'acknowledged') events.push('alert.acknowledged');
  if (change.status === 'resolved') events.push('alert.resolved', ...(heartbeat ? (['heartbeat.up'] as const) : []));
  return events;
}

/** The moment that makes an event one occurrence (a note on an acknowledged alert is no second acknowledgement). */
function eventStamp(event: DestinationEvent, alert: Alert): string | null {
  switch (event) {
    case 'alert.triggered':
    case 'heartbeat.down':
      return alert.createdAt;
    case 'alert.acknowledged':
      return alert.acknowledgedAt;
    case 'alert.resolved':
    case 'heartbeat.up':
      return alert.resolvedAt;
    case 'alert.assigned':
      return alert.assignedTo;
    default:
      // alert.escalated is the engine's (level-posts.service.ts); approvals are not alert changes.
      return null;
  }
}

export function matches(dest: Pick<DestinationsTable, 'events' | 'filter'>, event: string, alert: { priority: string; clientId: string | null }): boolean {
  const events = JSON.parse(dest.events) as string[];
  const filter = JSON.parse(dest.filter) as DestinationFilter;
  if (!events.includes(event)) return false;
  if (filter.priorities?.length && !filter.priorities.includes(alert.priority as never)) return false;
  if (filter.clientIds?.length && (!alert.clientId || !filter.clientIds.includes(alert.clientId))) return false;
  return true;
}

/** The body posted for an alert event (Standard Webhooks' shape: type, timestamp, data). */
export function alertPayload(event: DestinationEvent | typeof UPDATE_EVENT, alert: Alert, at: string, publicUrl: string) {
  return {
    type: event,
    timestamp: at,
    data: {
      alert: {
        id: alert.id,
        title: alert.title,
        description: alert.description,
        priority: alert.priority,
        status: alert.status,
        source: alert.source,
        clientId: alert.clientId,
        clientName: alert.clientName,
        assignedTo: alert.assignedTo,
        assigneeName: alert.assigneeName,
        dedupKey: alert.dedupKey,
        createdAt: alert.createdAt,
        acknowledgedAt: alert.acknowledgedAt,
        resolvedAt: alert.resolvedAt,
        url: `${publicUrl}/app/dashboard?alert=${encodeURIComponent(alert.id)}`,
      },
    },
  };
}

/** A delivery row waiting for its first attempt. */
export function newDelivery(tenantId: string, destinationId: string, eventType: string, messageId: string, payload: unknown, at: string): DestinationDeliveriesTable {
  return {
    id: randomUUID(),
    tenant_id: tenantId,
    destination_id: destinationId,
    event_type: eventType,
    message_id: messageId,
    payload: JSON.stringify(payload),
    status: 'pending',
    attempts: 0,
    response_status: null,
    latency_ms: null,
    response_excerpt: null,
    error: null,
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  };
}

export const deliverJob = (d: Pick<DestinationDeliveriesTable, 'id' | 'tenant_id'>, attempt: number, dueAt: Date) => ({
  kind: DELIVER_JOB,
  uniqueKey: `${DELIVER_JOB}:${d.id}:${attempt}`,
  dueAt,
  tenantId: d.tenant_id,
  payload: { deliveryId: d.id },
});

export const messageIdOf = (key: string) => `msg_${createHash('sha256').update(key).digest('base64url').slice(0, 26)}`;

/**
 * Writes deliveries with their first attempt's job (due `now`), in the caller's transaction when it has one; a message
 * written already for a destination (by another instance, or as both a subscription and a level's post) is not
 * written twice. Returns how many were written.
 */
export async function queueDeliveries(db: DB, rows: DestinationDeliveriesTable[], now: Date): Promise<number> {
  const jobs = [];
  for (const row of rows) if (await repo.insertDelivery(db, row)) jobs.push(deliverJob(row, 1, now));
  if (jobs.length) await enqueueJobs(db, jobs, now);
  return jobs.length;
}

/** What a Slack message's update is logged as when the change is no subscribed event (started, assigned, closed). */
export const UPDATE_EVENT = 'alert.updated';

/**
 * Hears every alert change (every instance hears each one): for the tenant's enabled destinations subscribed to its
 * event and matching their filter, writes one delivery per destination and message (the unique index lets the first
 * instance win) and schedules its first attempt. A Slack destination that posted a message for the alert gets a
 * delivery for every change of what the message shows (it is updated), whatever it subscribes to.
 */
export function alertFanOut(deps: DeliveryDeps, log: { warn(o: object, m: string): void }) {
  const onChange = async (tenantId: string, change: AlertChange) => {
    const events = eventsOf(change);
    const all = await deps.destinations.list(tenantId);
    const subscribed = all.filter((d) => (JSON.parse(d.events) as string[]).some((e) => (events as string[]).includes(e)));
    const slack = change.kind === 'updated' ? all.filter((d) => d.type === 'slack') : [];
    if (subscribed.length === 0 && slack.length === 0) return;
    const messages = slack.length ? await chat.listSlackMessagesOfAlert(deps.db, tenantId, change.id) : [];
    if (subscribed.length === 0 && messages.length === 0) return;
    const { alert } = await getAlertDetail(deps.db, tenantId, change.id);
    // Slack messages that show something else now (a repeat of the alert changes nothing they show).
    const posted = new Set(messages.filter((m) => m.state !== shownState(alert)).map((m) => m.destination_id));
    // A heartbeat event only for a monitor's own alert (its integration id is the monitor's), not for any alert whose
    // sender chose a dedup key that looks like one.
    const monitor = events.some((e) => e.startsWith('heartbeat.')) && alert.integrationId !== null && (await repo.isHeartbeatMonitor(deps.db, tenantId, alert.integrationId));
    const stamped = events
      .filter((event) => monitor || !event.startsWith('heartbeat.'))
      .map((event) => ({ event, stamp: eventStamp(event, alert) }))
      .filter((e): e is { event: DestinationEvent; stamp: string } => e.stamp !== null);
    const now = deps.jobs.clock();
    const at = now.toISOString();
    const rows: DestinationDeliveriesTable[] = [];
    for (const dest of all) {
      if (posted.has(dest.id) && slack.includes(dest)) {
        const type = stamped.find((e) => e.event !== 'alert.assigned')?.event ?? UPDATE_EVENT;
        rows.push(newDelivery(tenantId, dest.id, type, messageIdOf(`${tenantId}:${alert.id}:update:${alert.updatedAt}`), alertPayload(type, alert, alert.updatedAt, deps.publicUrl), at));
        continue;
      }
      if (!subscribed.includes(dest)) continue;
      for (const { event, stamp } of stamped)
        if (matches(dest, event, alert)) {
          // An assignment's stamp is the assignee; its time is the alert's last change.
          const when = event === 'alert.assigned' ? alert.updatedAt : stamp;
          rows.push(newDelivery(tenantId, dest.id, event, messageIdOf(`${tenantId}:${alert.id}:${event}:${stamp}`), alertPayload(event, alert, when, deps.publicUrl), at));
        }
    }
    if (await queueDeliveries(deps.db, rows, now)) deps.jobs.worker.wakeWithin(100);
  };
  return (tenantId: string, change: AlertChange) => void onChange(tenantId, change).catch((err: unknown) => log.warn({ err, tenantId }, 'destinations: an alert change was not fanned out'));
}

/**
 * A post to a chat, in its alert's timeline (issue 29): every Teams card, and a Slack message when it is first posted
 * (its updates are the same message), and a webhook an escalation level posted to. Other webhook deliveries and test
 * events are the receiver's business, not the alert's story.
 */
async function notePost(db: DB, tenantId: string, dest: DestinationsTable, delivery: DestinationDeliveriesTable, at: string) {
  // A Slack message is posted first for a new alert or a level's post; the alert's later changes update it.
  const posts = delivery.event_type === 'alert.triggered' || delivery.event_type === 'heartbeat.down' || delivery.event_type === ESCALATED_EVENT;
  // A webhook is in the timeline only when an escalation level named it ("post to … at level 1").
  const level = levelOf(delivery);
  if (!(dest.type === 'teams' || (dest.type === 'slack' && posts) || (dest.type === 'webhook' && level)) || delivery.event_type === TEST_EVENT) return;
  const alertId = (JSON.parse(delivery.payload) as { data?: { alert?: { id?: unknown } } }).data?.alert?.id;
  if (typeof alertId !== 'string') return;
  await recordAlertEvent(db, tenantId, alertId, { kind: 'posted', actorName: 'Alertdesk', at, detail: { destination: dest.name, type: dest.type, event: delivery.event_type, channel: dest.channel, ...(level ? { level } : {}) } });
}

/** A webhook's attempt: the body signed with the destination's secret (and its previous one during a rotation). */
async function sendWebhook(deps: DeliveryDeps, dest: DestinationsTable, delivery: DestinationDeliveriesTable, now: Date): Promise<Outcome> {
  const at = now.toISOString();
  const key = await secretKey(deps.db);
  const secrets = [decryptSecret(key, dest.secret_enc!)];
  if (dest.previous_secret_enc && dest.previous_secret_until && dest.previous_secret_until > at) secrets.push(decryptSecret(key, dest.previous_secret_enc));
  const headers = webhookHeaders(secrets, delivery.message_id, Math.floor(now.getTime() / 1000), delivery.payload);
  return postJson(dest.url!, delivery.payload, headers, deps.outbound);
}

/** The attempt by the destination's type: a signed webhook, a Teams card, a Slack message. */
async function send(deps: DeliveryDeps, dest: DestinationsTable, delivery: DestinationDeliveriesTable, now: Date): Promise<Outcome> {
  if (dest.type === 'teams') return sendTeams(deps, dest, delivery, now);
  if (dest.type === 'slack') return sendSlack(deps, dest, delivery, decryptSecret(await secretKey(deps.db), dest.secret_enc!), now);
  return sendWebhook(deps, dest, delivery, now);
}

/**
 * Whether a level's post is still wanted when its turn comes: not once the alert was acknowledged (or moved on), nor
 * while it is snoozed. A deleted alert is left to the send, which says so.
 */
async function stillEscalating(db: DB, tenantId: string, delivery: DestinationDeliveriesTable, now: Date): Promise<boolean> {
  const alertId = (JSON.parse(delivery.payload) as { data?: { alert?: { id?: string } } }).data?.alert?.id;
  if (!alertId) return true;
  try {
    const { alert } = await getAlertDetail(db, tenantId, alertId);
    return alert.status === 'new' && !(alert.snoozedUntil && alert.snoozedUntil > now.toISOString());
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return true;
    throw err;
  }
}

const usable = (d: DestinationsTable) => d.enabled === 1 && !!d.secret_enc === (d.type !== 'teams') && (d.type === 'slack' ? !!d.channel : !!d.url);

/**
 * One attempt to send a delivery, now: by the destination's type (a signed webhook, a Teams card through the address
 * guard, a Slack message), records the outcome, and schedules the next attempt or disables the destination (410).
 * Used by the job and by "send a test event" / "send again".
 */
export async function attemptDelivery(deps: DeliveryDeps, tenantId: string, deliveryId: string, now: Date): Promise<void> {
  const delivery = await repo.getDelivery(deps.db, tenantId, deliveryId);
  if (!delivery || delivery.status !== 'pending') return;
  const dest = await repo.getDestination(deps.db, tenantId, delivery.destination_id);
  const at = now.toISOString();
  if (!dest || !usable(dest)) {
    await repo.updateDelivery(deps.db, tenantId, deliveryId, { status: 'failed', error: dest?.disabled_reason ?? 'The destination is disabled', next_attempt_at: null, updated_at: at });
    return;
  }
  if (delivery.event_type === ESCALATED_EVENT && !(await stillEscalating(deps.db, tenantId, delivery, now))) {
    await repo.updateDelivery(deps.db, tenantId, deliveryId, { status: 'failed', error: DESTINATION_MSG.notSentAcknowledged, next_attempt_at: null, updated_at: at });
    return;
  }
  const result = await send(deps, dest, delivery, now);
  const attempt = delivery.attempts + 1;
  const next = nextAfter(result.status === null ? { status: null, error: result.error ?? 'failed' } : { status: result.status, retryAfter: result.retryAfter }, attempt, now, { guardRefused: result.guardRefused || result.permanent });
  const after = deps.jobs.clock().toISOString();
  await repo.updateDelivery(deps.db, tenantId, deliveryId, {
    attempts: attempt,
    status: next.kind === 'retry' ? 'pending' : next.kind === 'succeeded' ? 'succeeded' : 'failed',
    response_status: result.status,
    latency_ms: result.latencyMs,
    response_excerpt: result.excerpt,
    error: result.error,
    next_attempt_at: next.kind === 'retry' ? next.at.toISOString() : null,
    updated_at: after,
  });
  if (next.kind === 'retry') await enqueueJobs(deps.db, [deliverJob(delivery, attempt + 1, next.at)], now);
  if (next.kind === 'succeeded') await notePost(deps.db, tenantId, dest, delivery, after);
  if (next.kind === 'disable') {
    await repo.updateDestination(deps.db, tenantId, dest.id, { enabled: 0, disabled_reason: DESTINATION_MSG.disabledGone, updated_at: after });
    deps.destinations.forget(tenantId);
  } else if (result.revoked && (await disableAndTell(deps, tenantId, dest, DESTINATION_MSG.disabledSlackToken, DESTINATION_MSG.slackTokenWhy, now))) {
    // A bot token Slack revoked never works again: disabled at once, its owners told (a test event too: it proves it).
    deps.destinations.forget(tenantId);
  } else if (next.kind !== 'succeeded' && delivery.event_type !== TEST_EVENT && (await disableIfFailingTooLong(deps, tenantId, dest, now))) {
    deps.destinations.forget(tenantId);
  }
}
