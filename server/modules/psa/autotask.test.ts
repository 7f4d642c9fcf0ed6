import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PSA_MSG } from '../../../contract/psa.ts';
import type { Config } from '../../config.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { PSA_HTTP } from './psa-http.ts';
import { noteTexts, psaActions, psaTenant, settle, ticketTexts } from './psa-test-harness.ts';
import { autotaskStandIn } from './psa-test-standins.ts';

const creds = { username: 'api@msp.example', secret: 'at-SECRET-1', integrationCode: 'at-CODE-2' };
const AT = 'Autotask';

for (const db of testDatabases()) {
  describe(`PSA tickets: Autotask [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = Date.now();
    let at: Awaited<ReturnType<typeof autotaskStandIn>>;
    beforeAll(async () => {
      at = await autotaskStandIn(creds);
      const overrides: Partial<Config> = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] }, psa: { autotaskZoneLookupUrl: at.lookupUrl } };
      env = await startTestApp(db, overrides, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await at.close();
    });
    const ticketsOf = (alertId: string) => [...at.tickets.values()].filter((x) => String(x.description).includes(`alertdesk:${alertId}`));

    async function setup() {
      const tenant = await psaTenant(env);
      const settings = { ...creds, queueId: 29683, newStatus: 1, completeStatus: 5 };
      const conn = await tenant.owner.agent.post(`${tenant.t}/psaConnections`, { type: 'autotask', name: 'AT', settings });
      expect(conn.statusCode).toBe(201);
      const connBase = `${tenant.t}/psaConnections/${conn.data.id}`;
      const map = await tenant.owner.agent.get(`${connBase}/companyMap`);
      expect(map.data.items[0].suggested).toEqual({ companyId: '77', companyName: 'Acme Corporation', matchedOn: 'Acme Corporation' });
      await tenant.owner.agent.put(`${connBase}/companyMap`, { items: [{ clientId: tenant.clientId, companyId: '77' }] });
      return { ...tenant, conn: conn.data, connBase };
    }

    it('finds the zone, tests with the three headers, never answers the secrets', async () => {
      const { owner, conn, connBase } = await setup();
      expect(conn).toMatchObject({ type: 'autotask', settings: { username: creds.username, queueId: 29683 }, secretsSet: { secret: true, integrationCode: true }, inboundUrl: null });
      expect((await owner.agent.post(`${connBase}/test`)).data).toEqual({ ok: true, message: PSA_MSG.testOk });
      const call = at.seen.find((s) => s.path.startsWith('/zone1/'))!;
      expect(call.headers).toMatchObject({ apiintegrationcode: creds.integrationCode, username: creds.username, secret: creds.secret });
      for (const res of [await owner.agent.get(connBase), await owner.agent.post(`${connBase}/test`)]) {
        expect(res.body).not.toContain(creds.secret);
        expect(res.body).not.toContain(creds.integrationCode);
      }
    });

    it('opens a ticket with the picklist priority, notes, finds it after a lost answer, and a ticket completed in Autotask resolves the alert (polled)', async () => {
      const { owner, t, raise, connBase } = await setup();
      at.mishaps.push('drop');
      const alertId = await raise('at-disk', 'critical', 'Disk full');
      await settle(env, owner.tenantId, 1);
      expect((await owner.agent.get(connBase)).data.queueLength).toBe(1);
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      const tickets = ticketsOf(alertId);
      expect(tickets).toHaveLength(1);
      const [ticket] = tickets;
      // Critical is Autotask's picklist value 4 ("Critical"), read from the ticket fields.
      expect(ticket).toMatchObject({ companyID: 77, title: '[CRITICAL] Disk full', status: 1, priority: 4, queueID: 29683 });
      expect((await owner.agent.get(`${t}/alerts/${alertId}`)).data.alert.ticket).toEqual({ number: ticket.ticketNumber, url: `${at.url}/web/Mvc/ServiceDesk/TicketDetail.mvc?ticketId=${ticket.id}` });
      await raise('at-disk');
      await settle(env, owner.tenantId, 2);
      expect(noteTexts(ticket.notes)).toEqual([PSA_MSG.noteRecurrence(2)]);

      // Completed in Autotask: the next minute's poll resolves the alert.
      ticket.status = 5;
      ticket.lastActivityDate = new Date(nowMs + 1000).toISOString();
      nowMs += 61_000;
      await env.app.jobs.worker.runDue();
      const detail = (await owner.agent.get(`${t}/alerts/${alertId}`)).data;
      expect(detail.alert.status).toBe('resolved');
      expect(await ticketTexts(owner.agent, t, alertId)).toContain(PSA_MSG.closedInPsaResolved(AT, ticket.ticketNumber));
      await new Promise((r) => setTimeout(r, 50));
      await env.app.jobs.worker.runDue();
      expect(noteTexts(ticket.notes)).toEqual([PSA_MSG.noteRecurrence(2)]);

      // The next poll asks only for what changed since the last one (a minute's overlap).
      const other = await raise('at-cpu');
      await settle(env, owner.tenantId, 3);
      const [second] = ticketsOf(other);
      second.status = 5;
      second.lastActivityDate = new Date(nowMs + 1000).toISOString();
      const polledAt = nowMs;
      nowMs += 61_000;
      await env.app.jobs.worker.runDue();
      expect((await owner.agent.get(`${t}/alerts/${other}`)).data.alert.status).toBe('resolved');
      const poll = at.seen.filter((x) => x.path.endsWith('/Tickets/query')).at(-1)!;
      expect(poll.body.filter).toEqual([
        { op: 'in', field: 'id', value: [second.id] },
        { op: 'eq', field: 'status', value: 5 },
        { op: 'gt', field: 'lastActivityDate', value: new Date(polledAt - 60_000).toISOString() },
      ]);
    });

    it('a note that timed out after Autotask stored it is found by the TicketNotes query on the retry, never added twice', async () => {
      const { owner, raise, connBase } = await setup();
      const alertId = await raise('at-lost-note');
      await settle(env, owner.tenantId, 1);
      const [ticket] = ticketsOf(alertId);
      at.noteMishaps.push('hang');
      PSA_HTTP.timeoutMs = 300;
      try {
        await raise('at-lost-note');
        await settle(env, owner.tenantId, 2);
      } finally {
        PSA_HTTP.timeoutMs = 10_000;
      }
      expect(ticket.notes).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: `POST /zone1/ATServicesRest/v1.0/Tickets/${ticket.id}/Notes: no answer within 0.3 s`, queueLength: 1 });
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      expect(noteTexts(ticket.notes)).toEqual([PSA_MSG.noteRecurrence(2)]);
      const noteAction = (await psaActions(env, owner.tenantId)).find((a) => a.action === 'note')!;
      const query = at.seen.filter((x) => x.path === '/zone1/ATServicesRest/v1.0/TicketNotes/query');
      expect(query).toHaveLength(1);
      expect(query[0].method).toBe('POST');
      expect(query[0].body).toEqual({ filter: [{ op: 'eq', field: 'ticketID', value: ticket.id }, { op: 'contains', field: 'description', value: `Alertdesk ref ${noteAction.id}` }] });
      expect(query[0].headers).toMatchObject({ apiintegrationcode: creds.integrationCode, username: creds.username, secret: creds.secret });
      expect(at.seen.filter((x) => x.method === 'POST' && x.path === `/zone1/ATServicesRest/v1.0/Tickets/${ticket.id}/Notes`)).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });
    });
  });
}
