import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../test/alerts.ts';
import { MINUTE, pagingHarness } from '../../test/paging.ts';
import { receiver, until, type Received } from '../../test/receiver.ts';
import { testDatabases, type Agent } from '../../test/test-app.ts';

/** Issue 29's further events: an alert assigned (once per assignee), a heartbeat monitor down and up again. */
for (const db of testDatabases()) {
  describe(`destination events beyond an alert's status [${db.name}]`, () => {
    let rx: Awaited<ReturnType<typeof receiver>>;
    beforeAll(async () => {
      rx = await receiver();
    });
    afterAll(() => rx.close());
    const h = pagingHarness(db, { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } });
    const bodies = (got: Received[]) => got.map((g) => JSON.parse(g.body) as { type: string; data: { alert: Record<string, unknown> } });

    async function subscribe(agent: Agent, tenantId: string, events: string[]) {
      const res = await agent.post(`/api/tenants/${tenantId}/destinations`, { name: 'Automation', url: rx.url, events });
      expect(res.statusCode).toBe(201);
    }
    const deliver = async (n: number) => {
      await until(async () => {
        await h.env.app.jobs.worker.runDue();
        return rx.got.length >= n;
      });
    };

    it('posts alert.assigned once per assignee, never for a change that assigns nobody new', async () => {
      const { owner, second, integration } = await h.setup();
      rx.got.length = 0;
      await subscribe(owner.agent, owner.tenantId, ['alert.assigned']);
      const res = await ingest(h.env.app, '/api/ingest/events', { title: 'Printer offline', dedupKey: 'printer-1', priority: 'low' }, { authorization: `Bearer ${integration.key}` });
      const alertId = res.data.alertId as string;
      const base = `/api/tenants/${owner.tenantId}/alerts/${alertId}`;
      expect((await owner.agent.post(`${base}/assign`, { userId: second.userId })).statusCode).toBe(200);
      await deliver(1);
      expect((await owner.agent.post(`${base}/notes`, { text: 'Toner ordered' })).statusCode).toBeLessThan(300);
      expect((await owner.agent.post(`${base}/assign`, { userId: owner.userId })).statusCode).toBe(200);
      await deliver(2);
      await h.advance(1000);
      const got = bodies(rx.got);
      expect(got.map((b) => [b.type, b.data.alert.assignedTo])).toEqual([
        ['alert.assigned', second.userId],
        ['alert.assigned', owner.userId],
      ]);
    });

    it('posts heartbeat.down when a monitor misses its ping and heartbeat.up when it pings again; a look-alike dedup key posts neither', async () => {
      const { owner, integration } = await h.setup();
      rx.got.length = 0;
      await subscribe(owner.agent, owner.tenantId, ['heartbeat.down', 'heartbeat.up']);
      // Any sender may pick a dedup key like a monitor's: that is no heartbeat.
      await ingest(h.env.app, '/api/ingest/events', { title: 'Fake', dedupKey: 'heartbeat:00000000-0000-0000-0000-000000000000', priority: 'high' }, { authorization: `Bearer ${integration.key}` });
      h.nowMs = Date.now() - 70 * MINUTE;
      const created = await owner.agent.post(`/api/tenants/${owner.tenantId}/heartbeats`, { name: 'Nightly backup', intervalMinutes: 60, graceMinutes: 10, priority: 'critical' });
      expect(created.statusCode).toBe(201);
      const ping = new URL(created.data.pingUrl).pathname;
      expect((await h.env.app.inject({ method: 'GET', url: ping })).statusCode).toBe(200);
      await h.advance(70 * MINUTE);
      await deliver(1);
      expect((await h.env.app.inject({ method: 'GET', url: ping })).statusCode).toBe(200);
      await deliver(2);
      await h.advance(1000);
      const got = bodies(rx.got);
      expect(got.map((b) => b.type)).toEqual(['heartbeat.down', 'heartbeat.up']);
      expect(got[0].data.alert).toMatchObject({ dedupKey: `heartbeat:${created.data.id}`, title: expect.stringContaining('Nightly backup') });
    });
  });
}
