import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AlertsTable } from '../db/schema.ts';
import type { Agent } from './test-app.ts';
import { registerOwner } from './factories.ts';

/** Creates an integration through the API and returns its id and its key (shown once). */
export async function createIntegration(agent: Agent, tenantId: string, body: { name?: string; clientId?: string | null } = {}) {
  const res = await agent.post(`/api/tenants/${tenantId}/integrations`, { name: body.name ?? 'Prometheus', ...(body.clientId !== undefined ? { clientId: body.clientId } : {}) });
  if (res.statusCode !== 201) throw new Error(`createIntegration failed: ${res.statusCode} ${res.body}`);
  return { id: res.data.integration.id as string, key: res.data.key as string };
}

/** POSTs JSON to an ingestion endpoint the way a monitoring tool does: no cookie, no Origin. */
export async function ingest(app: FastifyInstance, url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
  let data: any = null;
  try {
    data = JSON.parse(res.body);
  } catch {
    data = res.body;
  }
  return Object.assign(res, { data });
}

/**
 * A new tenant with its owner (signed in), an integration, the URL of its alerts (`base`) and `raise`, which sends an
 * event through that integration and returns the id of the alert it opened or updated.
 */
export async function alertTenant(app: FastifyInstance) {
  const owner = await registerOwner(app, { name: 'Olivia Owner' });
  const integration = await createIntegration(owner.agent, owner.tenantId);
  const base = `/api/tenants/${owner.tenantId}/alerts`;
  const raise = async (dedupKey: string, severity = 'critical', summary = `Alert ${dedupKey}`) => {
    const res = await ingest(app, '/api/ingest/events', { title: summary, dedupKey, priority: severity }, { authorization: `Bearer ${integration.key}` });
    if (res.statusCode !== 202) throw new Error(res.body);
    return res.data.alertId as string;
  };
  return { owner, integration, base, raise };
}

export const pdTrigger = (key: string, over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  routing_key: key,
  event_action: 'trigger',
  payload: { summary: 'Disk almost full on db-1', source: 'db-1.prod', severity: 'critical', ...payload },
  ...over,
});

export interface StreamEvent {
  event: string;
  data: any;
}

/** A live event stream over a real socket (app.inject cannot stream): collects every event it receives. */
export async function openEventStream(app: FastifyInstance, url: string, cookie: string | null) {
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the app must listen for event-stream tests');
  const events: StreamEvent[] = [];
  let status = 0;
  let ended = false;
  let req: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    req = http.get({ host: '127.0.0.1', port: address.port, path: url, headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) } }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) events.push({ event, data: data ? JSON.parse(data) : null });
          if (event === 'ready') resolve();
        }
      });
      res.on('end', () => {
        ended = true;
        resolve();
      });
      if (status !== 200) res.resume();
    });
    req.on('error', reject);
  });
  await opened;
  return {
    status: () => status,
    /** True once the server ended the stream. */
    ended: () => ended,
    events,
    alerts: () => events.filter((e) => e.event === 'alert').map((e) => e.data),
    /** Waits until an event matching `pred` arrives (or fails after `ms`). */
    async waitFor(pred: (e: StreamEvent) => boolean, ms = 3000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const hit = events.find(pred);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`);
    },
    close: () => req.destroy(),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A whole alerts row, for tests that write alerts straight into the table (seeded history, reports, rows stored before
 * a rule existed): a new high alert of `tenantId` opened now (or at `over.created_at`), its escalation left to the
 * column defaults; `over` replaces any column.
 */
export function alertRow(tenantId: string, over: Partial<AlertsTable> = {}): AlertsTable {
  const id = over.id ?? randomUUID();
  const at = over.created_at ?? new Date().toISOString();
  return {
    id,
    tenant_id: tenantId,
    client_id: null,
    integration_id: null,
    dedup_key: id,
    title: 'Disk full',
    description: '',
    priority: 'high',
    status: 'new',
    source: 'test',
    search_text: 'disk full',
    created_at: at,
    updated_at: at,
    acknowledged_by: null,
    acknowledged_at: null,
    resolved_by: null,
    resolved_at: null,
    closed_by: null,
    closed_at: null,
    assigned_to: null,
    tags: '[]',
    metadata: '{}',
    occurrences: 1,
    last_seen_at: at,
    ...over,
  };
}
