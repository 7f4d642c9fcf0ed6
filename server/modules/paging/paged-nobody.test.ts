import { describe, expect, it } from 'vitest';
import { testDatabases, type Agent } from '../../test/test-app.ts';
import { pagingHarness, MINUTE } from '../../test/paging.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';
import { createSchedule, everyDay } from '../../test/schedules.ts';
import type { BusMessage } from '../../events/alert-bus.ts';
import { markPagedNobody } from './paged-nobody.repository.ts';

const HOUR = 60 * MINUTE;

// Issue 25, "Storms and nobody paged": an alert whose escalation pages nobody is marked (when, and why), its
// dashboards hear of it, and the tenant's stats count those of the last 24 hours.
for (const db of testDatabases()) {
  describe(`alerts that paged nobody [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;
    const stats = async (agent: Agent, tenantId: string) => (await agent.get(`/api/tenants/${tenantId}/alerts/stats`)).data;
    const listed = async (agent: Agent, tenantId: string, alertId: string) =>
      ((await agent.get(`/api/tenants/${tenantId}/alerts`)).data.items as Array<{ id: string; pagedNobody: unknown }>).find((a) => a.id === alertId);
    const row = (alertId: string) => h.env.deps.db.selectFrom('alerts').select(['paged_nobody_at', 'paged_nobody_reason']).where('id', '=', alertId).executeTakeFirstOrThrow();

    it('marks an alert no policy applies to, in lists and its detail, and tells its dashboards; an alert paged as usual is not marked', async () => {
      const owner = await registerOwner(h.env.app);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const heard: BusMessage[] = [];
      const unsubscribe = h.env.deps.bus.subscribe(owner.tenantId, (m) => heard.push(m));
      const alertId = await trigger(integration.key);
      // Decided as it is stored (issue 26): no worker pass is needed, and one changes nothing.
      const created = (await detail(owner.agent, owner.tenantId, alertId)).alert;
      const mark = { at: created.createdAt, reason: 'no_policy' };
      expect(created.pagedNobody).toEqual(mark);
      await advance(0);
      unsubscribe();
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.pagedNobody).toEqual(mark);
      expect(await listed(owner.agent, owner.tenantId, alertId)).toMatchObject({ pagedNobody: mark });
      // The timeline says why, at the moment it was stored.
      const entry = (await detail(owner.agent, owner.tenantId, alertId)).timeline.find((e: { kind: string }) => e.kind === 'unrouted');
      expect(entry).toMatchObject({ at: mark.at, detail: { reason: 'No escalation policy applies to this alert: nobody was paged.' } });
      // Open dashboards hear of it with the new alert: the live stream loads it as it is, mark included.
      expect(heard).toContainEqual({ type: 'alert', change: expect.objectContaining({ kind: 'created', id: alertId, status: 'new' }) });
      expect((await stats(owner.agent, owner.tenantId)).pagedNobody).toBe(1);
      // It stays on the alert once someone handles it.
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/acknowledge`)).data.alert.pagedNobody).toEqual(mark);
      const resolved = await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/resolve`);
      expect(resolved.data.alert).toMatchObject({ status: 'resolved', pagedNobody: mark });
      const history = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/history`)).data.items;
      expect(history.find((a: { id: string }) => a.id === alertId)).toMatchObject({ pagedNobody: mark });
      // Counted by when it was marked, whatever its status now.
      expect((await stats(owner.agent, owner.tenantId)).pagedNobody).toBe(1);

      const paged = await setup();
      const ok = await trigger(paged.integration.key);
      // The policy gives info alerts no time: its own choice ("alerts of that priority page nobody"), not a gap.
      const info = await trigger(paged.integration.key, { priority: 'info' });
      await advance(0);
      expect(mailsTo(await emailOf(paged.owner.userId))).toHaveLength(1);
      for (const id of [ok, info]) {
        expect((await detail(paged.owner.agent, paged.owner.tenantId, id)).alert.pagedNobody).toBeNull();
        expect(await row(id)).toEqual({ paged_nobody_at: null, paged_nobody_reason: null });
      }
      expect((await stats(paged.owner.agent, paged.owner.tenantId)).pagedNobody).toBe(0);
    });

    it('marks an alert whose level 1 names nobody who can be paged (a removed member, nobody on call), and still escalates it', async () => {
      const owner = await registerOwner(h.env.app);
      const gone = await addMember(h.env.deps, h.env.app, owner.tenantId);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      // A schedule whose period starts next month: nobody is on call on it now.
      const day = (offsetDays: number) => new Date(h.nowMs + offsetDays * 86_400_000).toISOString().slice(0, 10);
      const later = await createSchedule(owner.agent, owner.tenantId, {
        name: 'Next month',
        startTime: day(30),
        endTime: day(60),
        timeZone: 'UTC',
        rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: null }),
      });
      const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
        name: 'Thin',
        isDefault: true,
        level_1: { userIds: [gone.userId], scheduleIds: [later.id], notificationChannels: ['email'] },
        level_2: { userIds: [owner.userId], timeAfterPrevious: 5, notificationChannels: ['email'] },
      });
      expect(policy.statusCode).toBe(201);
      // The only person level 1 names leaves the organization.
      const members = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items as Array<{ id: string; userId: string }>;
      const membership = members.find((m) => m.userId === gone.userId)!;
      expect((await owner.agent.request('DELETE', `/api/tenants/${owner.tenantId}/members/${membership.id}`)).statusCode).toBe(200);

      const alertId = await trigger(integration.key);
      await advance(0);
      const mark = { at: new Date(h.nowMs).toISOString(), reason: 'nobody_on_level' };
      let d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.pagedNobody).toEqual(mark);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'escalated').detail).toMatchObject({ level: 1, names: [] });
      expect(mailsTo(gone.email)).toHaveLength(0);
      // Level 2 still follows, and the mark stays what it was: level 1 paged nobody.
      await advance(5 * MINUTE);
      expect(mailsTo(owner.email)).toHaveLength(1);
      d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.pagedNobody).toEqual(mark);
    });

    it('marks an alert whose level-1 pages were all skipped (nobody had a channel that works), not one where a page went out', async () => {
      const { owner, second, integration, policyId } = await setup();
      const level1 = (channels: string[], userIds: string[]) =>
        h.env.deps.db
          .updateTable('escalation_policies')
          .set({ level_1: JSON.stringify({ userIds, scheduleIds: [], notificationChannels: channels }) })
          .where('id', '=', policyId)
          .execute();
      // SMS only, and nobody turned SMS on.
      await level1(['sms'], [owner.userId, second.userId]);
      const unreachable = await trigger(integration.key);
      await advance(0);
      expect((await detail(owner.agent, owner.tenantId, unreachable)).alert.pagedNobody).toEqual({ at: new Date(h.nowMs).toISOString(), reason: 'unreachable' });
      expect((await stats(owner.agent, owner.tenantId)).pagedNobody).toBe(1);
      // Email and SMS: the email reaches them.
      await level1(['email', 'sms'], [owner.userId]);
      const reached = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(await emailOf(owner.userId)).some((m) => m.text.includes(reached))).toBe(true);
      expect((await detail(owner.agent, owner.tenantId, reached)).alert.pagedNobody).toBeNull();
    });

    it('marks an alert whose escalation stopped on an error at its start', async () => {
      const broken = await setup();
      const alertId = await trigger(broken.integration.key);
      // A stored level the engine chokes on (the API never stores it).
      await h.env.deps.db
        .updateTable('escalation_policies')
        .set({ level_1: JSON.stringify({ userIds: 5, scheduleIds: [], notificationChannels: ['email'] }) })
        .where('id', '=', broken.policyId)
        .execute();
      await advance(0);
      expect((await detail(broken.owner.agent, broken.owner.tenantId, alertId)).alert.pagedNobody).toEqual({ at: new Date(h.nowMs).toISOString(), reason: 'failed' });
    });

    it('counts the alerts of the last 24 hours only, of the tenant alone; markPagedNobody marks once, within its tenant', async () => {
      const first = await registerOwner(h.env.app);
      const firstKey = await createIntegration(first.agent, first.tenantId);
      const [a1, , a3] = [await trigger(firstKey.key), await trigger(firstKey.key), await trigger(firstKey.key)];
      await advance(0);
      expect((await stats(first.agent, first.tenantId)).pagedNobody).toBe(3);
      // One of them was marked 25 hours ago: out of the window.
      await h.env.deps.db
        .updateTable('alerts')
        .set({ paged_nobody_at: new Date(Date.now() - 25 * HOUR).toISOString() })
        .where('id', '=', a3)
        .execute();
      expect((await stats(first.agent, first.tenantId)).pagedNobody).toBe(2);

      // Another tenant, whose alerts were paged: none of the first tenant's marks count there.
      const second = await setup();
      const [b1, b2, b3] = [await trigger(second.integration.key), await trigger(second.integration.key), await trigger(second.integration.key)];
      await advance(0);
      expect((await stats(second.owner.agent, second.owner.tenantId)).pagedNobody).toBe(0);

      // What page delivery calls when every page of level 1 was skipped: it marks the tenant's alerts it is given,
      // never another tenant's, and an alert already marked keeps its first mark.
      const at = new Date(Date.now() - 23 * HOUR).toISOString();
      const marked = await markPagedNobody(h.env.deps.db, second.owner.tenantId, [b1, b2, a1], at);
      expect(marked.map((m) => m.id).sort()).toEqual([b1, b2].sort());
      expect(marked[0]).toMatchObject({ status: 'new', priority: 'critical' });
      expect(await row(b1)).toEqual({ paged_nobody_at: at, paged_nobody_reason: 'unreachable' });
      expect(await row(a1)).toMatchObject({ paged_nobody_reason: 'no_policy' });
      expect(await markPagedNobody(h.env.deps.db, second.owner.tenantId, [b1], new Date().toISOString(), 'failed')).toEqual([]);
      expect(await row(b1)).toEqual({ paged_nobody_at: at, paged_nobody_reason: 'unreachable' });
      expect(await markPagedNobody(h.env.deps.db, second.owner.tenantId, [], at)).toEqual([]);
      expect((await detail(second.owner.agent, second.owner.tenantId, b2)).alert.pagedNobody).toEqual({ at, reason: 'unreachable' });

      // 23 hours ago counts; the first tenant's figures did not move.
      expect((await stats(second.owner.agent, second.owner.tenantId)).pagedNobody).toBe(2);
      expect((await stats(first.agent, first.tenantId)).pagedNobody).toBe(2);
      expect(await row(b3)).toEqual({ paged_nobody_at: null, paged_nobody_reason: null });
    });
  });
}
