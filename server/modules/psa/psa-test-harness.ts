import { expect } from 'vitest';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { registerOwner } from '../../test/factories.ts';
import type { TestEnv } from '../../test/test-app.ts';
import { until } from '../../test/receiver.ts';
import { listActions } from './psa.repository.ts';

export { until };

/** The PSA calls planned for a tenant, in order. */
export const psaActions = (env: TestEnv, tenantId: string) => listActions(env.deps.db, tenantId);

/** Lets the bus listener plan (it runs after the ingest's answer) until `count` calls are planned, then runs the due jobs. */
export async function settle(env: TestEnv, tenantId: string, count: number) {
  await until(async () => (await psaActions(env, tenantId)).length >= count);
  await new Promise((r) => setTimeout(r, 30));
  await env.app.jobs.worker.runDue();
}

/**
 * A tenant with a client ("Acme HQ", alias "Acme Corporation"), an integration of that client, and `raise`, which
 * sends an event through it and returns the alert's id.
 */
export async function psaTenant(env: TestEnv) {
  const owner = await registerOwner(env.app, { name: 'Olivia Owner' });
  const t = `/api/tenants/${owner.tenantId}`;
  const client = await owner.agent.post(`${t}/clients`, { name: 'Acme HQ', status: 'active', aliases: ['Acme Corporation'] });
  expect(client.statusCode).toBe(201);
  const integration = await createIntegration(owner.agent, owner.tenantId, { clientId: client.data.id });
  const raise = async (dedupKey: string, priority = 'critical', title = `Alert ${dedupKey}`) => {
    const res = await ingest(env.app, '/api/ingest/events', { title, dedupKey, priority }, { authorization: `Bearer ${integration.key}` });
    expect(res.statusCode).toBe(202);
    return res.data.alertId as string;
  };
  const resolveByKey = async (dedupKey: string) => {
    const res = await ingest(env.app, '/api/ingest/events', { title: 'x', dedupKey, action: 'resolve' }, { authorization: `Bearer ${integration.key}` });
    expect(res.statusCode).toBe(202);
  };
  return { owner, t, clientId: client.data.id as string, integration, raise, resolveByKey };
}

/** The `ticket` entries of an alert's timeline, as texts. */
export async function ticketTexts(agent: { get(url: string): Promise<{ data: any }> }, t: string, alertId: string): Promise<string[]> {
  const detail = await agent.get(`${t}/alerts/${alertId}`);
  return detail.data.timeline.filter((e: { kind: string }) => e.kind === 'ticket').map((e: { detail: { text: string } }) => e.detail.text);
}

/** The reference line every note of ours ends with (the action's id). */
const NOTE_REF = /\n\nAlertdesk ref [0-9a-f-]{36}$/;

/** A PSA's notes as their text reads, each checked to end with our reference line, which is taken off. */
export function noteTexts(notes: string[]): string[] {
  return notes.map((n) => {
    expect(n).toMatch(NOTE_REF);
    return n.replace(NOTE_REF, '');
  });
}

/** A connection of the tenant (`psaTenant`) with its client mapped to the PSA's `companyId`. */
export async function connectPsa(tenant: Awaited<ReturnType<typeof psaTenant>>, body: { type: string; name: string; settings: Record<string, unknown> }, companyId: string) {
  const conn = await tenant.owner.agent.post(`${tenant.t}/psaConnections`, body);
  expect(conn.statusCode).toBe(201);
  const connBase = `${tenant.t}/psaConnections/${conn.data.id}`;
  expect((await tenant.owner.agent.put(`${connBase}/companyMap`, { items: [{ clientId: tenant.clientId, companyId }] })).statusCode).toBe(200);
  return { conn: conn.data, connBase };
}
