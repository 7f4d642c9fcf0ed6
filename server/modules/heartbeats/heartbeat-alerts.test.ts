import { describe, expect, it } from 'vitest';
import { HEARTBEAT_MSG } from '../../../contract/heartbeats.ts';
import { insertClient } from '../../test/factories.ts';
import { MINUTE, pagingHarness } from '../../test/paging.ts';
import { testDatabases, type Agent } from '../../test/test-app.ts';

/**
 * Heartbeat monitors over time: the job worker's clock is moved (pagingHarness), pings are stamped with it, and the
 * alert a monitor opens is paged by the default policy of the harness (the owner, by email, at once).
 */
for (const db of testDatabases()) {
  describe(`heartbeat monitors over time [${db.name}]`, () => {
    const h = pagingHarness(db);

    async function monitor(agent: Agent, tenantId: string, over: Record<string, unknown> = {}) {
      const res = await agent.post(`/api/tenants/${tenantId}/heartbeats`, { name: 'Nightly backup', intervalMinutes: 60, graceMinutes: 10, priority: 'critical', ...over });
      expect(res.statusCode).toBe(201);
      const path = new URL(res.data.pingUrl).pathname;
      return {
        id: res.data.id as string,
        ping: async (suffix = '') => expect((await h.env.app.inject({ method: 'GET', url: `${path}${suffix}` })).statusCode).toBe(200),
        read: async () => (await agent.get(`/api/tenants/${tenantId}/heartbeats/${res.data.id}`)).data,
        alerts: () => h.env.deps.db.selectFrom('alerts').selectAll().where('tenant_id', '=', tenantId).where('dedup_key', '=', `heartbeat:${res.data.id}`).execute(),
      };
    }

    it('goes new → up → late → down, opens one alert that pages like any alert, and the next ping resolves it', async () => {
      const { owner } = await h.setup();
      const clientId = await insertClient(h.env.deps.db, owner.tenantId, 'Globex');
      // The clock starts 70 minutes back, so the monitor goes down at about the real time its alert is stamped with
      // (ingestion's), and its escalation runs as it would in real time.
      h.nowMs = Date.now() - 70 * MINUTE;
      const m = await monitor(owner.agent, owner.tenantId, { clientId });
      const ownerEmail = await h.emailOf(owner.userId);
      expect((await m.read()).state).toBe('new');

      await m.ping();
      const pingedAt = (await m.read()).lastPingAt as string;
      expect(Date.parse(pingedAt)).toBe(h.nowMs);
      await h.advance(59 * MINUTE);
      expect((await m.read()).state).toBe('up');
      await h.advance(1 * MINUTE);
      expect((await m.read()).state).toBe('late');
      expect(await m.alerts()).toHaveLength(0);
      await h.advance(9 * MINUTE);
      expect((await m.read()).state).toBe('late');
      await h.advance(1 * MINUTE);
      const down = await m.read();
      expect(down.state).toBe('down');

      const alerts = await m.alerts();
      expect(alerts).toHaveLength(1);
      const [alert] = alerts;
      expect(down.alertId).toBe(alert.id);
      expect(alert).toMatchObject({
        title: HEARTBEAT_MSG.alertTitleMissed('Nightly backup'),
        priority: 'critical',
        client_id: clientId,
        integration_id: m.id,
        source: 'Heartbeat',
        status: 'new',
        occurrences: 1,
      });
      expect(alert.description).toContain(`Last ping: ${pingedAt.slice(0, 16).replace('T', ' ')} UTC`);
      // The dashboard lists it with its client and source; it escalates like any alert: the owner is paged.
      const listed = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data.items;
      expect(listed).toEqual([expect.objectContaining({ id: alert.id, clientName: 'Globex', source: 'Heartbeat', integrationName: null })]);
      // Ingestion stamps the alert with the real time: the clock catches up with it (a few milliseconds).
      h.nowMs = Math.max(h.nowMs, Date.now());
      await h.advance(0);
      await expect.poll(() => h.mailsTo(ownerEmail).length).toBe(1);
      expect(h.mailsTo(ownerEmail)[0].subject).toContain(HEARTBEAT_MSG.alertTitleMissed('Nightly backup'));

      // Staying down opens nothing more, however long.
      await h.advance(24 * 60 * MINUTE);
      expect(await m.alerts()).toHaveLength(1);
      expect((await m.alerts())[0].occurrences).toBe(1);

      await m.ping();
      expect(await m.read()).toMatchObject({ state: 'up', alertId: null });
      const [resolved] = await m.alerts();
      expect(resolved.status).toBe('resolved');
      const detail = await h.detail(owner.agent, owner.tenantId, alert.id);
      expect(detail.timeline).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'triggered', actorName: 'Heartbeat' }), expect.objectContaining({ kind: 'resolved', actorType: 'integration', actorName: "Heartbeat 'Nightly backup'" })]));

      // Missing again later opens a new alert (the last one is resolved).
      await h.advance(70 * MINUTE);
      const again = await m.alerts();
      expect(again).toHaveLength(2);
      expect(again.filter((a) => a.status === 'new')).toHaveLength(1);
    });

    it('waits for the first ping however long it takes; never goes down while paused; resumed, it gets a whole interval', async () => {
      const { owner } = await h.setup();
      const m = await monitor(owner.agent, owner.tenantId);
      await h.advance(30 * 24 * 60 * MINUTE);
      expect((await m.read()).state).toBe('new');
      await m.ping();
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/heartbeats/${m.id}/pause`)).data.state).toBe('paused');
      await h.advance(365 * 24 * 60 * MINUTE);
      await m.ping('/fail');
      await h.advance(60 * MINUTE);
      expect((await m.read()).state).toBe('paused');
      expect(await m.alerts()).toHaveLength(0);
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/heartbeats/${m.id}/resume`)).data.state).toBe('up');
      await h.advance(59 * MINUTE);
      expect((await m.read()).state).toBe('up');
      await h.advance(MINUTE);
      expect((await m.read()).state).toBe('late');
    });

    it('a run started with /start and not finished within the grace time is down', async () => {
      const { owner } = await h.setup();
      const m = await monitor(owner.agent, owner.tenantId, { intervalMinutes: 1440, graceMinutes: 30 });
      await m.ping('/start');
      expect((await m.read()).state).toBe('new');
      await h.advance(29 * MINUTE);
      expect((await m.read()).state).toBe('new');
      await h.advance(MINUTE);
      expect((await m.read()).state).toBe('down');
      expect(await m.alerts()).toHaveLength(1);
      // A run that does finish in time keeps it up.
      await m.ping();
      await m.ping('/start');
      await h.advance(20 * MINUTE);
      await m.ping();
      await h.advance(20 * MINUTE);
      expect((await m.read()).state).toBe('up');
    });

    it('two workers sweeping at once move a monitor down once and open one alert', async () => {
      const { owner } = await h.setup();
      const monitors = await Promise.all([1, 2, 3].map((i) => monitor(owner.agent, owner.tenantId, { name: `Job ${i}` })));
      for (const m of monitors) await m.ping();
      h.nowMs += 70 * MINUTE;
      const sweep = h.env.app.heartbeats.monitor.sweep;
      const now = new Date(h.nowMs);
      await Promise.all([sweep(now), sweep(now), sweep(now)]);
      for (const m of monitors) {
        expect((await m.read()).state).toBe('down');
        const alerts = await m.alerts();
        expect(alerts).toHaveLength(1);
        expect(alerts[0].occurrences).toBe(1);
      }
    });

    it('opens the alert through the worker when the change was stored but its alert never went through', async () => {
      const { owner } = await h.setup();
      const m = await monitor(owner.agent, owner.tenantId);
      await m.ping();
      // As if the instance that moved it down had stopped right after its write.
      const due = new Date(h.nowMs + 60_000).toISOString();
      await h.env.deps.db.updateTable('heartbeats').set({ state: 'down', next_check_at: null, alert_wanted: 1, alert_seq: 1, alert_sync_due_at: due }).where('id', '=', m.id).execute();
      await h.advance(30_000);
      expect(await m.alerts()).toHaveLength(0);
      await h.advance(30_000);
      const alerts = await m.alerts();
      expect(alerts).toHaveLength(1);
      expect(alerts[0].title).toBe(HEARTBEAT_MSG.alertTitleMissed('Nightly backup'));
      const row = await h.env.deps.db.selectFrom('heartbeats').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ alert_sync_due_at: null, alert_id: alerts[0].id });
      // Nothing more on later passes.
      await h.advance(5 * MINUTE);
      expect((await m.alerts())[0].occurrences).toBe(1);
    });

    it('a stale trigger that lands after the resolve is undone: the row has the last word', async () => {
      const { owner } = await h.setup();
      const m = await monitor(owner.agent, owner.tenantId);
      await m.ping('/fail');
      const stale = await h.env.deps.db.selectFrom('heartbeats').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
      await m.ping();
      expect((await m.alerts()).map((a) => a.status)).toEqual(['resolved']);
      // The trigger of the /fail, delayed until after the success ping was handled, goes through now.
      await h.env.app.heartbeats.monitor.syncAlert(stale);
      const statuses = (await m.alerts()).map((a) => a.status).sort();
      expect(statuses).toEqual(['resolved', 'resolved']);
      expect((await m.read()).state).toBe('up');
    });
  });
}
