import { randomUUID } from 'node:crypto';
import { DESTINATION_LIMITS, DESTINATION_MSG, TEST_EVENT, type Delivery, type Destination, type DestinationInput, type DestinationWithSecret } from '../../../contract/destinations.ts';
import type { DestinationDeliveriesTable, DestinationsTable } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { existingClientIds } from '../clients/clients.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { attemptDelivery, newDelivery, secretKey, type DeliveryDeps } from './destination-delivery.ts';
import * as chat from './chat.repository.ts';
import * as repo from './destinations.repository.ts';
import { maskTeamsUrl, teamsUrlAllowed } from './teams.ts';
import { encryptSecret, newWebhookSecret, SECRET_PREFIX } from './webhook-signing.ts';

export type DestinationServiceDeps = DeliveryDeps;

/** Owners and admins manage destinations (the ability that governs integrations: where alerts come from and go). */
const MANAGE = 'manageIntegrations' as const;
const destinationNotFound = () => notFound(DESTINATION_MSG.notFound);

export function toDestination(row: DestinationsTable & { secret_prefix?: string | null }): Destination {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    url: row.type === 'teams' && row.url ? maskTeamsUrl(row.url) : row.url,
    channel: row.channel,
    events: JSON.parse(row.events),
    filter: JSON.parse(row.filter),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    secretPrefix: row.type !== 'webhook' ? null : (row.secret_prefix ?? (row.secret_enc ? SECRET_PREFIX : null)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const toDelivery = (d: DestinationDeliveriesTable): Delivery => ({
  id: d.id,
  eventType: d.event_type,
  messageId: d.message_id,
  status: d.status,
  attempts: d.attempts,
  responseStatus: d.response_status,
  latencyMs: d.latency_ms,
  responseExcerpt: d.response_excerpt,
  error: d.error,
  nextAttemptAt: d.next_attempt_at,
  createdAt: d.created_at,
  updatedAt: d.updated_at,
});

const fieldError = (field: string, message: string) => badRequest(message, { [field]: message });

/**
 * What the contract cannot check alone: a Teams URL's host (Workflows / Power Platform, or one the operator allowed),
 * a Slack destination's bot token at creation, a type that does not change, the filter's clients (the tenant's).
 */
async function checkInput(deps: DeliveryDeps, tenantId: string, input: DestinationInput, existing?: DestinationsTable) {
  if (existing && existing.type !== input.type) throw fieldError('type', DESTINATION_MSG.typeFixed);
  if (input.type === 'teams' && !teamsUrlAllowed(input.url!, deps.outbound)) throw fieldError('url', DESTINATION_MSG.teamsUrlHost);
  if (input.type === 'slack' && !existing && !input.botToken) throw fieldError('botToken', DESTINATION_MSG.botTokenRequired);
  const ids = input.filter?.clientIds ?? [];
  if (ids.length) {
    const found = await existingClientIds(deps.db, tenantId, ids);
    if (ids.some((id) => !found.has(id))) throw badRequest(DESTINATION_MSG.unknownClient, { 'filter.clientIds': DESTINATION_MSG.unknownClient });
  }
}

const filterJson = (input: DestinationInput) =>
  JSON.stringify({ ...(input.filter?.clientIds?.length ? { clientIds: [...new Set(input.filter.clientIds)] } : {}), ...(input.filter?.priorities?.length ? { priorities: [...new Set(input.filter.priorities)] } : {}) });

async function load(deps: DeliveryDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  const row = await repo.getDestination(deps.db, ctx.tenant.id, id);
  if (!row) throw destinationNotFound();
  return row;
}

export async function listDestinations(deps: DeliveryDeps, ctx: TenantContext) {
  authorize(ctx, MANAGE);
  return { items: (await repo.listDestinations(deps.db, ctx.tenant.id)).map((r) => toDestination(r)) };
}

/**
 * A new destination. A webhook's signing secret (`whsec_…`) is in this answer only; a Slack destination's bot token is
 * never answered. Both are stored encrypted; a Teams Workflows URL carries its own signature and needs no secret.
 */
export async function createDestination(deps: DestinationServiceDeps, ctx: TenantContext, input: DestinationInput): Promise<DestinationWithSecret> {
  authorize(ctx, MANAGE);
  await checkInput(deps, ctx.tenant.id, input);
  if ((await repo.countDestinations(deps.db, ctx.tenant.id)) >= DESTINATION_LIMITS.perTenant) throw badRequest(DESTINATION_MSG.tooMany);
  const secret = input.type === 'webhook' ? newWebhookSecret() : input.type === 'slack' ? input.botToken! : null;
  const at = deps.jobs.clock().toISOString();
  const row: DestinationsTable = {
    id: randomUUID(),
    tenant_id: ctx.tenant.id,
    type: input.type,
    name: input.name,
    url: input.type === 'slack' ? null : input.url!,
    channel: input.type === 'slack' ? input.channel! : null,
    events: JSON.stringify([...new Set(input.events)]),
    filter: filterJson(input),
    secret_enc: secret ? encryptSecret(await secretKey(deps.db), secret) : null,
    previous_secret_enc: null,
    previous_secret_until: null,
    enabled: input.enabled === false ? 0 : 1,
    disabled_reason: null,
    created_by: ctx.user.id,
    created_at: at,
    updated_at: at,
  };
  await repo.insertDestination(deps.db, row);
  deps.destinations.forget(ctx.tenant.id);
  return input.type === 'webhook' ? { ...toDestination(row), secret: secret! } : toDestination(row);
}

/**
 * Name, URL or channel, events, filter, enabled; enabling again clears why it was disabled. A webhook's secret stays;
 * a Slack bot token is replaced only when a new one is given.
 */
export async function updateDestination(deps: DestinationServiceDeps, ctx: TenantContext, id: string, input: DestinationInput) {
  const row = await load(deps, ctx, id);
  await checkInput(deps, ctx.tenant.id, input, row);
  const enabled = input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0;
  await repo.updateDestination(deps.db, ctx.tenant.id, id, {
    name: input.name,
    url: input.type === 'slack' ? null : row.url && input.url === maskTeamsUrl(row.url) ? row.url : input.url!,
    channel: input.type === 'slack' ? input.channel! : null,
    ...(input.type === 'slack' && input.botToken ? { secret_enc: encryptSecret(await secretKey(deps.db), input.botToken) } : {}),
    events: JSON.stringify([...new Set(input.events)]),
    filter: filterJson(input),
    enabled,
    disabled_reason: enabled ? null : row.disabled_reason,
    updated_at: deps.jobs.clock().toISOString(),
  });
  deps.destinations.forget(ctx.tenant.id);
  return toDestination((await repo.getDestination(deps.db, ctx.tenant.id, id))!);
}

export async function deleteDestination(deps: DestinationServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  await chat.deleteSlackMessagesOf(deps.db, ctx.tenant.id, id);
  if (!(await repo.deleteDestination(deps.db, ctx.tenant.id, id))) throw destinationNotFound();
  deps.destinations.forget(ctx.tenant.id);
}

/** How long the previous secret keeps signing after a rotation, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/**
 * A new signing secret, shown once: for 24 h every message carries both signatures (the old secret's too), so the
 * receiver can switch over without missing one.
 */
export async function rotateSecret(deps: DestinationServiceDeps, ctx: TenantContext, id: string): Promise<DestinationWithSecret> {
  const row = await load(deps, ctx, id);
  if (row.type !== 'webhook') throw badRequest(DESTINATION_MSG.noSigningSecret);
  const secret = newWebhookSecret();
  const now = deps.jobs.clock();
  await repo.updateDestination(deps.db, ctx.tenant.id, id, {
    secret_enc: encryptSecret(await secretKey(deps.db), secret),
    previous_secret_enc: row.secret_enc,
    previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    updated_at: now.toISOString(),
  });
  return { ...toDestination((await repo.getDestination(deps.db, ctx.tenant.id, id))!), secret };
}


/** Sends a test event now (whatever the destination subscribes to) and answers its delivery with the outcome. */
export async function sendTestEvent(deps: DeliveryDeps, ctx: TenantContext, id: string): Promise<Delivery> {
  const dest = await load(deps, ctx, id);
  const now = deps.jobs.clock();
  const payload = { type: TEST_EVENT, timestamp: now.toISOString(), data: { destination: { id: dest.id, name: dest.name }, tenant: { id: ctx.tenant.id, name: ctx.tenant.name }, sentBy: ctx.user.display_name || ctx.user.email } };
  const row = newDelivery(ctx.tenant.id, dest.id, TEST_EVENT, `msg_${randomUUID().replaceAll('-', '')}`, payload, now.toISOString());
  await repo.insertDelivery(deps.db, row);
  await attemptDelivery(deps, ctx.tenant.id, row.id, now);
  return toDelivery((await repo.getDelivery(deps.db, ctx.tenant.id, row.id))!);
}

export async function listDeliveries(deps: DeliveryDeps, ctx: TenantContext, id: string) {
  await load(deps, ctx, id);
  return { items: (await repo.listDeliveries(deps.db, ctx.tenant.id, id, DESTINATION_LIMITS.deliveriesShown)).map(toDelivery) };
}

/** "Send again": one more attempt now, with the same webhook-id (a receiver recognises the message); not while one is pending. */
export async function retryDelivery(deps: DeliveryDeps, ctx: TenantContext, id: string, deliveryId: string): Promise<Delivery> {
  await load(deps, ctx, id);
  const delivery = await repo.getDelivery(deps.db, ctx.tenant.id, deliveryId);
  if (!delivery || delivery.destination_id !== id) throw notFound(DESTINATION_MSG.deliveryNotFound);
  if (delivery.status === 'pending') throw conflict('This delivery is still being attempted');
  const now = deps.jobs.clock();
  await repo.updateDelivery(deps.db, ctx.tenant.id, deliveryId, { status: 'pending', next_attempt_at: now.toISOString(), updated_at: now.toISOString() });
  await attemptDelivery(deps, ctx.tenant.id, deliveryId, now);
  return toDelivery((await repo.getDelivery(deps.db, ctx.tenant.id, deliveryId))!);
}
