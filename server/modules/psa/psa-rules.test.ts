import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PSA_MSG } from '../../../contract/psa.ts';
import type { Config } from '../../config.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { noteTexts, psaActions, psaTenant, settle, ticketTexts, until } from './psa-test-harness.ts';
import { connectWiseStandIn } from './psa-test-standins.ts';

const creds = { companyId: 'msp', publicKey: 'pub', privateKey: 'priv-rules', clientId: 'client-rules' };
const CW = 'ConnectWise PSA';

for (const db of testDatabases()) {
  describe(`PSA ticket rules [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = Date.now();
    let cw: Awaited<ReturnType<typeof connectWiseStandIn>>;
    const overrides: Partial<Config> = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } };
    beforeAll(async () => {
      cw = await connectWiseStandIn(creds);
      env = await startTestApp(db, overrides, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await cw.close();
    });
    const ticketsOf = (alertId: string) => [...cw.tickets.values()].filter((x) => x.externalXRef === `alertdesk:${alertId}`);

    async function setup(rules: Record<string, unknown> = {}, board = 'Alerts') {
      const tenant = await psaTenant(env);
      const settings = { siteUrl: cw.siteUrl, ...creds, board, newStatus: 'New', closedStatus: 'Closed' };
      const conn = await tenant.owner.agent.post(`${tenant.t}/psaConnections`, { type: 'connectwise', name: 'CW', settings, rules: { catchAllCompanyId: 'Catchall', ...rules } });
      expect(conn.statusCode).toBe(201);
      return { ...tenant, connBase: `${tenant.t}/psaConnections/${conn.data.id}` };
    }

    it('with "unacknowledged after N minutes", opens a ticket only for alerts still unacknowledged then, and says why not', async () => {
      const { owner, t, raise } = await setup({ triggerMode: 'unacknowledged_after', unacknowledgedMinutes: 15 });
      const acked = await raise('acked-in-time');
      const ignored = await raise('left-alone');
      await settle(env, owner.tenantId, 2);
      expect(ticketsOf(acked)).toHaveLength(0);
      expect(ticketsOf(ignored)).toHaveLength(0);
      expect((await owner.agent.post(`${t}/alerts/${acked}/acknowledge`)).statusCode).toBe(200);
      nowMs += 16 * 60_000;
      await env.app.jobs.worker.runDue();
      expect(ticketsOf(acked)).toHaveLength(0);
      expect(ticketsOf(ignored)).toHaveLength(1);
      expect(await ticketTexts(owner.agent, t, acked)).toEqual([PSA_MSG.noTicketAcknowledged(CW, 15)]);
      expect(await ticketTexts(owner.agent, t, ignored)).toEqual([PSA_MSG.ticketOpened(CW, String(ticketsOf(ignored)[0].id))]);
    });

    it('a recurrence within 24 h of its ticket closing reopens that ticket (no second one)', async () => {
      const { owner, t, raise, resolveByKey } = await setup();
      const first = await raise('flapping');
      await settle(env, owner.tenantId, 1);
      await resolveByKey('flapping');
      await settle(env, owner.tenantId, 2);
      const ticket = ticketsOf(first)[0];
      expect(ticket.status).toEqual({ name: 'Closed' });
      nowMs += 3600_000;
      const second = await raise('flapping');
      expect(second).not.toBe(first);
      await settle(env, owner.tenantId, 3);
      await until(async () => (await psaActions(env, owner.tenantId)).length >= 4);
      await env.app.jobs.worker.runDue();
      expect(ticketsOf(second)).toHaveLength(0);
      expect(ticket.status).toEqual({ name: 'New' });
      expect(noteTexts(ticket.notes).at(-1)).toBe(PSA_MSG.noteReopened(1));
      expect(await ticketTexts(owner.agent, t, second)).toEqual([PSA_MSG.ticketReopened(CW, String(ticket.id))]);
      expect((await owner.agent.get(`${t}/alerts/${second}`)).data.alert.ticket.number).toBe(String(ticket.id));
    });

    it('with "link", a recurrence within 24 h opens a new ticket that names the previous one', async () => {
      const { owner, t, raise, resolveByKey } = await setup({ recurrence: 'link' });
      const first = await raise('linked');
      await settle(env, owner.tenantId, 1);
      await resolveByKey('linked');
      await settle(env, owner.tenantId, 2);
      const previous = ticketsOf(first)[0];
      const second = await raise('linked');
      await settle(env, owner.tenantId, 3);
      const next = ticketsOf(second)[0];
      expect(next.id).not.toBe(previous.id);
      expect((next as unknown as { initialDescription: string }).initialDescription).toContain(`Follows ticket #${previous.id}`);
      expect(await ticketTexts(owner.agent, t, second)).toEqual([PSA_MSG.ticketLinked(CW, String(next.id), String(previous.id))]);
    });

    it('after a server died mid-call (its record left "sending"), the next run finds the ticket the PSA made and makes none', async () => {
      const { owner, t, raise } = await setup();
      const alertId = await raise('crash');
      await until(async () => (await psaActions(env, owner.tenantId)).length === 1);
      await new Promise((r) => setTimeout(r, 30));
      // What a crash after the POST leaves: the record says sending, the PSA has the ticket, we have no answer.
      const [action] = await psaActions(env, owner.tenantId);
      await env.deps.db.updateTable('psa_actions').set({ status: 'sending', attempts: 1 }).where('id', '=', action.id).execute();
      cw.tickets.set(4242, { id: 4242, summary: 'x', externalXRef: `alertdesk:${alertId}`, status: { name: 'New' }, company: { identifier: 'Catchall' }, priority: { name: 'P1' }, board: { name: 'Alerts' }, notes: [] });
      const posts = cw.seen.filter((x) => x.method === 'POST' && x.path.endsWith('/service/tickets')).length;
      await env.app.jobs.worker.runDue();
      expect(cw.seen.filter((x) => x.method === 'POST' && x.path.endsWith('/service/tickets')).length).toBe(posts);
      expect((await owner.agent.get(`${t}/alerts/${alertId}`)).data.alert.ticket.number).toBe('4242');
    });

    it('refuses private addresses through the outbound guard (test connection says so)', async () => {
      const { owner, t } = await setup();
      const conn = await owner.agent.post(`${t}/psaConnections`, { type: 'connectwise', name: 'Metadata', settings: { siteUrl: 'http://169.254.169.254', ...creds, board: 'A', newStatus: 'N', closedStatus: 'C' } });
      const res = await owner.agent.post(`${t}/psaConnections/${conn.data.id}/test`);
      expect(res.data).toEqual({ ok: false, message: '169.254.169.254 is not a public address' });
    });

    it('a create the PSA refuses (400) is given up at once: the error on the connection and in the timeline', async () => {
      const { owner, t, raise, connBase } = await setup({}, 'Nope');
      const alertId = await raise('refused');
      await settle(env, owner.tenantId, 1);
      const conn = (await owner.agent.get(connBase)).data;
      expect(conn.lastError).toContain('answered 400');
      expect(conn.queueLength).toBe(0);
      const texts = await ticketTexts(owner.agent, t, alertId);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^ConnectWise PSA ticket update failed for good: POST \/v4_6_release\/apis\/3.0\/service\/tickets answered 400/);
      expect((await owner.agent.get(`${t}/alerts/${alertId}`)).data.alert.ticket).toBeNull();
      expect(JSON.stringify(conn)).not.toContain(creds.privateKey);
    });
  });
}
