import { randomUUID } from 'node:crypto';
import type { RoutingRule, RoutingRules } from '../../../contract/ingest-formats.ts';
import { INTEGRATION_MSG } from '../../../contract/integrations.ts';
import type { DB } from '../../db/database.ts';
import { now, parseJson } from '../../db/database.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { existingClientIds } from '../clients/clients.service.ts';
import { checkPolicyRef } from '../escalation/escalation-policies.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { findRoutingRules, insertRawEvent, listRawEvents, saveRoutingRules } from './integrations.repository.ts';

/** An integration's routing rules, for those who manage integrations (403 otherwise; 404 for another tenant's). */
export async function getRoutingRules(db: DB, ctx: TenantContext, id: string): Promise<RoutingRules> {
  authorize(ctx, 'manageIntegrations');
  const stored = await findRoutingRules(db, ctx.tenant.id, id);
  if (stored === undefined) throw notFound();
  return { rules: parseJson<RoutingRule[]>(stored, []) };
}

/**
 * Replaces the rules (each client and escalation policy a rule names must be the tenant's: 400 naming the rule
 * otherwise) and forgets the integration on every instance, so the next event is routed by the new rules.
 */
export async function setRoutingRules(deps: { db: DB; bus: AlertBus }, ctx: TenantContext, id: string, body: RoutingRules): Promise<RoutingRules> {
  authorize(ctx, 'manageIntegrations');
  const named = [...new Set(body.rules.map((r) => r.then.clientId).filter((c): c is string => !!c))];
  if (named.length) {
    const known = await existingClientIds(deps.db, ctx.tenant.id, named);
    const bad = body.rules.findIndex((r) => r.then.clientId && !known.has(r.then.clientId));
    if (bad >= 0) throw badRequest(INTEGRATION_MSG.unknownClient, { [`rules.${bad}.then.clientId`]: INTEGRATION_MSG.unknownClient });
  }
  // A rule's escalation policy must be the tenant's too (400 naming the rule, as for an integration's own policy).
  for (const [i, r] of body.rules.entries()) await checkPolicyRef(deps.db, ctx.tenant.id, r.then.escalationPolicyId, `rules.${i}.then.escalationPolicyId`);
  if (!(await saveRoutingRules(deps.db, ctx.tenant.id, id, JSON.stringify(body.rules), now()))) throw notFound();
  deps.bus.invalidateIntegrations([id]);
  return { rules: body.rules };
}

/** Property names whose values are never kept: keys, tokens, secrets, signatures (and SNS URLs carrying a token). */
const SECRET = /^(routing_key|integration_key|api_?key|access_?key|.*token|.*secret.*|.*passw.*|signature|authorization|.*credential.*|(un)?subscribeurl)$/i;
const RAW_MAX_CHARS = 64 * 1024;

/** `body` with every secret-looking property's value replaced, as JSON text (a body too large to keep: a marker). */
export function redacted(body: unknown): string {
  const text = JSON.stringify(body, (name, value: unknown) => (name && SECRET.test(name) && value !== null && typeof value !== 'object' ? '[redacted]' : value));
  return text && text.length <= RAW_MAX_CHARS ? text : JSON.stringify({ truncated: true, chars: text?.length ?? 0 });
}

const RECORD_EVERY_MS = 1_000;

/**
 * Keeps the raw events an integration receives for the rules preview: at most one a second per integration on this
 * instance (a burst is sampled, so keeping them costs ingestion almost nothing), written after the answer, never
 * failing an ingestion.
 */
export class RawEventRecorder {
  private last = new Map<string, number>();
  constructor(private readonly db: DB) {}

  record(integration: { id: string; tenantId: string }, format: string, body: unknown, at = Date.now()) {
    if (at - (this.last.get(integration.id) ?? 0) < RECORD_EVERY_MS) return;
    if (this.last.size > 50_000) this.last.clear();
    this.last.set(integration.id, at);
    const row = { id: randomUUID(), tenant_id: integration.tenantId, integration_id: integration.id, format, body: redacted(body), received_at: new Date(at).toISOString() };
    insertRawEvent(this.db, row).catch(() => {});
  }
}

/** The kept raw events of an integration (newest first) with its saved rules: 403/404 like the rules. */
export async function rulesPreviewInput(db: DB, ctx: TenantContext, id: string) {
  const { rules } = await getRoutingRules(db, ctx, id);
  const events = await listRawEvents(db, ctx.tenant.id, id);
  return { rules, events: events.map((e) => ({ id: e.id, format: e.format, receivedAt: e.received_at, body: parseJson<unknown>(e.body, null) })) };
}
