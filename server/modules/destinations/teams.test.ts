import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_MSG } from '../../../contract/destinations.ts';
import { alertTenant } from '../../test/alerts.ts';
import { registerOwner } from '../../test/factories.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { workflowsReceiver } from '../../test/destination-stand-ins.ts';
import { until } from '../../test/receiver.ts';

for (const db of testDatabases()) {
  describe(`Microsoft Teams destinations [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let rx: Awaited<ReturnType<typeof workflowsReceiver>>;
    let nowMs = Date.now();
    beforeAll(async () => {
      rx = await workflowsReceiver();
      env = await startTestApp(db, { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } }, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await rx.close();
    });
    const deliveries = (tenantId: string) => env.deps.db.selectFrom('destination_deliveries').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
    const linkOf = (card: any, title: string) => card.attachments[0].content.actions.find((a: any) => a.title === title)?.url as string | undefined;

    it('refuses the retired Office 365 connector URLs saying why, and takes Workflows and Power Platform URLs', async () => {
      const { owner } = await alertTenant(env.app);
      const base = `/api/tenants/${owner.tenantId}/destinations`;
      for (const url of ['https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456', 'https://outlook.office.com/webhook/abc/IncomingWebhook/def']) {
        const res = await owner.agent.post(base, { type: 'teams', name: 'NOC', url, events: ['alert.triggered'] });
        expect([url, res.statusCode, res.data.error.fields]).toEqual([url, 400, { url: DESTINATION_MSG.teamsConnectorRetired }]);
      }
      const other = await owner.agent.post(base, { type: 'teams', name: 'NOC', url: 'https://example.com/hook', events: ['alert.triggered'] });
      expect([other.statusCode, other.data.error.fields]).toEqual([400, { url: DESTINATION_MSG.teamsUrlHost }]);
      const plain = await owner.agent.post(base, { type: 'teams', name: 'NOC', url: 'http://prod-12.westus.logic.azure.com/workflows/x', events: ['alert.triggered'] });
      expect(plain.statusCode).toBe(400);
      for (const url of [
        'https://prod-12.westus.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?api-version=2016-06-01&sig=abc',
        'https://default0a1b2c.3d.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0a1b/triggers/manual/paths/invoke?sig=abc',
      ]) {
        const res = await owner.agent.post(base, { type: 'teams', name: 'NOC', url, events: ['alert.triggered'], enabled: false });
        expect([url, res.statusCode]).toEqual([url, 201]);
        // The URL's signature is its credential: answered hidden, kept when the hidden form is saved back.
        expect(res.data).toMatchObject({ type: 'teams', url: url.replace('sig=abc', 'sig=***'), channel: null, secretPrefix: null });
        const put = await owner.agent.put(`${base}/${res.data.id}`, { type: 'teams', name: 'NOC 2', url: res.data.url, events: ['alert.triggered'] });
        expect(put.data).toMatchObject({ name: 'NOC 2', url: res.data.url });
        const row = await env.deps.db.selectFrom('destinations').select('url').where('id', '=', res.data.id).executeTakeFirstOrThrow();
        expect(row.url).toBe(url);
        expect(res.data.secret).toBeUndefined();
      }
      const rotate = await owner.agent.post(`${base}/${(await owner.agent.get(base)).data.items[0].id}/rotateSecret`);
      expect([rotate.statusCode, rotate.data.error.message]).toEqual([400, DESTINATION_MSG.noSigningSecret]);
    });

    it('posts an Adaptive Card 1.4 (202), retries a 500, and its Acknowledge link acts once as the signed-in member "from Teams"', async () => {
      const { owner, raise, base } = await alertTenant(env.app);
      const created = await owner.agent.post(`/api/tenants/${owner.tenantId}/destinations`, { type: 'teams', name: 'NOC channel', url: rx.url, events: ['alert.triggered', 'alert.acknowledged'] });
      expect(created.statusCode).toBe(201);
      rx.got.length = 0;
      rx.answers.push(500);
      const alertId = await raise('db-down', 'critical', 'Database down');
      await until(async () => (await deliveries(owner.tenantId)).length === 1);
      await env.app.jobs.worker.runDue();
      let [d] = await deliveries(owner.tenantId);
      expect(d).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
      expect(Date.parse(d.next_attempt_at!) - nowMs).toBe(5_000);
      nowMs += 5_000;
      await env.app.jobs.worker.runDue();
      [d] = await deliveries(owner.tenantId);
      expect(d).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 202 });
      expect(rx.got).toHaveLength(2);
      const card = rx.got[1];
      expect(card.problems).toEqual([]);
      const content = card.body.attachments[0].content;
      expect(JSON.stringify(content.body)).toContain('Database down');
      expect(content.body.find((b: any) => b.type === 'FactSet').facts.map((f: any) => f.title)).toEqual(['Priority', 'Status', 'Age', 'Assignee']);
      expect(content.body[0]).toMatchObject({ type: 'Container', style: 'attention' });
      expect(content.actions.map((a: any) => a.title)).toEqual(['Acknowledge', 'Resolve', 'Open']);
      expect(linkOf(card.body, 'Open')).toBe(`http://localhost:3000/app/dashboard?alert=${alertId}`);

      const ack = linkOf(card.body, 'Acknowledge')!;
      expect(ack).toMatch(/^http:\/\/localhost:3000\/app\/chat\/[A-Za-z0-9_-]{43}$/);
      const token = ack.split('/').pop()!;
      const info = await env.app.inject({ method: 'GET', url: `/api/chat-links/${token}` });
      expect(JSON.parse(info.body)).toMatchObject({ kind: 'alert.acknowledge', alertId, alertTitle: 'Database down', alertStatus: 'new', usable: true });
      // No session: nothing happens. Someone of another tenant: like an unknown link.
      expect((await env.app.inject({ method: 'POST', url: `/api/chat-links/${token}`, headers: { origin: 'http://localhost:3000' } })).statusCode).toBe(401);
      const stranger = await registerOwner(env.app, { name: 'Stranger' });
      expect((await stranger.agent.post(`/api/chat-links/${token}`)).statusCode).toBe(404);
      expect((await owner.agent.get(`${base}/${alertId}`)).data.alert.status).toBe('new');
      const done = await owner.agent.post(`/api/chat-links/${token}`);
      expect(done.statusCode).toBe(200);
      expect(done.data).toEqual({ message: DESTINATION_MSG.actionDone('acknowledged'), alertId });
      const detail = (await owner.agent.get(`${base}/${alertId}`)).data;
      expect(detail.alert.status).toBe('acknowledged');
      expect(detail.timeline.find((e: any) => e.kind === 'acknowledged')).toMatchObject({ actorName: 'Olivia Owner', actorType: 'user', detail: { via: 'Teams' } });
      // The card it got is in the alert's timeline.
      expect(detail.timeline.find((e: any) => e.kind === 'posted')).toMatchObject({ actorType: 'system', detail: { type: 'teams', event: 'alert.triggered' } });
      const again = await owner.agent.post(`/api/chat-links/${token}`);
      expect([again.statusCode, again.data.error.message]).toEqual([409, DESTINATION_MSG.linkUsed]);
      expect((await env.app.inject({ method: 'GET', url: `/api/chat-links/${'x'.repeat(43)}` })).statusCode).toBe(404);

      // The acknowledgement is an event it subscribes to: a second card, without the Acknowledge button.
      await until(async () => (await deliveries(owner.tenantId)).length === 2);
      await env.app.jobs.worker.runDue();
      const second = rx.got[2].body.attachments[0].content;
      expect(rx.got[2].problems).toEqual([]);
      expect(second.actions.map((a: any) => a.title)).toEqual(['Resolve', 'Open']);
      expect(JSON.stringify(second.body)).toContain('Acknowledged from Teams by Olivia Owner');
    });

    it('sends a test card; another tenant cannot see, change, test or delete the destination', async () => {
      const { owner } = await alertTenant(env.app);
      const base = `/api/tenants/${owner.tenantId}/destinations`;
      const dest = (await owner.agent.post(base, { type: 'teams', name: 'Test me', url: rx.url, events: ['alert.triggered'] })).data;
      rx.got.length = 0;
      const test = await owner.agent.post(`${base}/${dest.id}/test`);
      expect(test.data).toMatchObject({ status: 'succeeded', responseStatus: 202, eventType: 'destination.test' });
      expect(rx.got[0].problems).toEqual([]);
      const other = await registerOwner(env.app);
      const theirs = `/api/tenants/${other.tenantId}/destinations/${dest.id}`;
      const mine = `${base}/${dest.id}`;
      for (const [method, url] of [['GET', `${theirs}/deliveries`], ['PUT', theirs], ['DELETE', theirs], ['POST', `${theirs}/test`], ['GET', `${mine}/deliveries`], ['POST', `${mine}/test`]] as const) {
        const res = await other.agent.request(method, url, method === 'PUT' ? { type: 'teams', name: 'x', url: rx.url, events: ['alert.triggered'] } : undefined);
        expect([method, url, res.statusCode]).toEqual([method, url, 404]);
      }
      expect(rx.got).toHaveLength(1);
    });
  });
}
