import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PSA_MSG } from '../../../contract/psa.ts';
import type { Config } from '../../config.ts';
import { ingest } from '../../test/alerts.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { noteTexts, psaActions, psaTenant, settle, ticketTexts } from './psa-test-harness.ts';
import { haloStandIn } from './psa-test-standins.ts';

const creds = { clientId: 'halo-app', clientSecret: 'halo-SECRET-value' };
const HALO = 'HaloPSA';

for (const db of testDatabases()) {
  describe(`PSA tickets: HaloPSA [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = Date.now();
    let halo: Awaited<ReturnType<typeof haloStandIn>>;
    const overrides: Partial<Config> = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } };
    beforeAll(async () => {
      halo = await haloStandIn(creds);
      env = await startTestApp(db, overrides, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await halo.close();
    });
    const settings = () => ({ baseUrl: halo.baseUrl, ...creds, ticketTypeId: 3, newStatusId: 1, closedStatusId: 9, priorities: { critical: 11 } });
    const ticketsOf = (alertId: string) => [...halo.tickets.values()].filter((x) => x.third_party_id === `alertdesk:${alertId}`);

    async function setup(rules: Record<string, unknown> = {}) {
      const tenant = await psaTenant(env);
      const conn = await tenant.owner.agent.post(`${tenant.t}/psaConnections`, { type: 'halopsa', name: 'Halo', settings: settings(), rules });
      expect(conn.statusCode).toBe(201);
      const connBase = `${tenant.t}/psaConnections/${conn.data.id}`;
      const map = await tenant.owner.agent.get(`${connBase}/companyMap`);
      const suggested = map.data.items[0].suggested;
      expect(suggested).toEqual({ companyId: '12', companyName: 'Acme Corporation', matchedOn: 'Acme Corporation' });
      expect((await tenant.owner.agent.put(`${connBase}/companyMap`, { items: [{ clientId: tenant.clientId, companyId: suggested.companyId, companyName: suggested.companyName }] })).statusCode).toBe(200);
      return { ...tenant, conn: conn.data, connBase };
    }

    it('tests the connection with a client-credentials token; the secret is never answered; bad input is 400', async () => {
      const { owner, t, conn, connBase } = await setup();
      expect(conn).toMatchObject({ type: 'halopsa', settings: { baseUrl: halo.baseUrl, clientId: 'halo-app', ticketTypeId: 3 }, secretsSet: { clientSecret: true } });
      expect(JSON.stringify(conn)).not.toContain(creds.clientSecret);
      expect((await owner.agent.post(`${connBase}/test`)).data).toEqual({ ok: true, message: PSA_MSG.testOk });
      const token = halo.seen.find((s) => s.path === '/auth/token')!;
      expect(token.body).toEqual({ grant_type: 'client_credentials', client_id: 'halo-app', client_secret: creds.clientSecret, scope: 'all' });
      const companies = await owner.agent.get(`${connBase}/companies?search=acme`);
      expect(companies.data.items).toEqual([{ id: '12', name: 'Acme Corporation', identifier: null }]);
      for (const res of [await owner.agent.get(connBase), await owner.agent.get(`${t}/psaConnections`)]) expect(res.body).not.toContain(creds.clientSecret);
      const bad = await owner.agent.post(`${t}/psaConnections`, { type: 'halopsa', name: 'H', settings: { ...settings(), ticketTypeId: 'three', closedStatusId: -1 } });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields).toMatchObject({ 'settings.ticketTypeId': 'Must be a whole number', 'settings.closedStatusId': 'Must be a whole number' });
    });

    it('opens a ticket by POSTing an array, notes recurrences as actions, closes on resolve', async () => {
      const { owner, t, raise } = await setup();
      const alertId = await raise('halo-db', 'critical', 'Database down');
      await settle(env, owner.tenantId, 1);
      const [ticket] = ticketsOf(alertId);
      expect(ticket).toMatchObject({ summary: '[CRITICAL] Database down', tickettype_id: 3, client_id: 12, status_id: 1, priority_id: 11 });
      const post = halo.seen.find((s) => s.method === 'POST' && s.path === '/api/Tickets')!;
      expect(post.headers.authorization).toBe('Bearer halo-token-1');
      expect(Array.isArray(post.body)).toBe(true);
      await raise('halo-db');
      await settle(env, owner.tenantId, 2);
      expect(ticketsOf(alertId)).toHaveLength(1);
      expect(noteTexts(ticket.actions)).toEqual([PSA_MSG.noteRecurrence(2)]);
      expect((await owner.agent.post(`${t}/alerts/${alertId}/resolve`)).statusCode).toBe(200);
      await settle(env, owner.tenantId, 3);
      expect(ticket.status_id).toBe(9);
      expect(noteTexts(ticket.actions).at(-1)).toBe(PSA_MSG.noteResolved('Olivia Owner'));
      expect((await owner.agent.get(`${t}/alerts/${alertId}`)).data.alert.ticket).toEqual({ number: String(ticket.id), url: `${halo.baseUrl}/ticket?id=${ticket.id}` });
    });

    it('after a lost answer finds the ticket by its third-party id instead of opening a second', async () => {
      const { owner, raise, connBase } = await setup();
      halo.mishaps.push('drop');
      const alertId = await raise('halo-lost');
      await settle(env, owner.tenantId, 1);
      expect((await owner.agent.get(connBase)).data.queueLength).toBe(1);
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      expect(ticketsOf(alertId)).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });
    });

    it('a note (action) whose answer was lost is found among the ticket\'s actions on the retry, never added twice', async () => {
      const { owner, raise, connBase } = await setup();
      const alertId = await raise('halo-lost-note');
      await settle(env, owner.tenantId, 1);
      const [ticket] = ticketsOf(alertId);
      halo.noteMishaps.push('drop');
      await raise('halo-lost-note');
      await settle(env, owner.tenantId, 2);
      expect(ticket.actions).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data.queueLength).toBe(1);
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      expect(noteTexts(ticket.actions)).toEqual([PSA_MSG.noteRecurrence(2)]);
      const noteAction = (await psaActions(env, owner.tenantId)).find((a) => a.action === 'note')!;
      expect(ticket.actions[0].endsWith(`Alertdesk ref ${noteAction.id}`)).toBe(true);
      const listed = halo.seen.filter((x) => x.method === 'GET' && x.path.startsWith('/api/Actions'));
      expect(listed.map((x) => x.path)).toEqual([`/api/Actions?ticket_id=${ticket.id}&excludesys=true&count=1000`]);
      expect(listed[0].headers.authorization).toBe('Bearer halo-token-1');
      expect(halo.seen.filter((x) => x.method === 'POST' && x.path === '/api/Actions' && x.body[0].ticket_id === ticket.id)).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });
    });

    it('a ticket closed in HaloPSA acknowledges the alert when the connection says so (webhook at our signed URL)', async () => {
      const { owner, t, raise, conn } = await setup({ inboundClose: 'acknowledge' });
      const alertId = await raise('halo-closed');
      await settle(env, owner.tenantId, 1);
      const [ticket] = ticketsOf(alertId);
      ticket.status_id = 9;
      nowMs += 1000;
      const res = await ingest(env.app, new URL(conn.inboundUrl).pathname, { id: ticket.id, status_id: 9 });
      expect(res.statusCode).toBe(200);
      const detail = (await owner.agent.get(`${t}/alerts/${alertId}`)).data;
      expect(detail.alert.status).toBe('acknowledged');
      expect(detail.acknowledgedByName).toBe(HALO);
      expect(await ticketTexts(owner.agent, t, alertId)).toContain(PSA_MSG.closedInPsaAcknowledged(HALO, String(ticket.id)));
    });
  });
}
