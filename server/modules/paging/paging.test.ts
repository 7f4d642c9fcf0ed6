import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, MINUTE, savePreferences } from '../../test/paging.ts';
import { listAlertJobs } from '../../jobs/jobs.repository.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import { DeliveryError } from '../../notifications/channel.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { buildApp } from '../../app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';

for (const db of testDatabases()) {
  describe(`escalation engine [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;

    it('pages level 1 when the alert opens, level 2 after its delay, then marks it overdue and pages the last level again', async () => {
      const { owner, second, third, integration } = await setup();
      const alertId = await trigger(integration.key);
      const [ownerEmail, secondEmail, thirdEmail] = await Promise.all([emailOf(owner.userId), emailOf(second.userId), emailOf(third.userId)]);
      await advance(0);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      expect(mailsTo(ownerEmail)[0].subject).toMatch(/^\[CRIT\] Disk full/);
      expect(mailsTo(ownerEmail)[0].text).toContain(`/app/dashboard?alert=${alertId}`);
      expect(mailsTo(ownerEmail)[0].text).toMatch(/Acknowledge: http:\/\/localhost:3000\/ack\/[A-Za-z0-9_-]+/);
      expect(mailsTo(secondEmail)).toHaveLength(0);

      await advance(4 * MINUTE);
      expect(mailsTo(secondEmail)).toHaveLength(0);
      await advance(1 * MINUTE);
      expect(mailsTo(secondEmail)).toHaveLength(1);
      await advance(5 * MINUTE);
      expect(mailsTo(thirdEmail)).toHaveLength(1);

      // 15 minutes after opening (the critical target) it is overdue and level 3 is paged once more.
      await advance(4 * MINUTE);
      let d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.overdueAt).toBeNull();
      await advance(1 * MINUTE + 1000);
      d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.overdueAt).toEqual(expect.any(String));
      expect(mailsTo(thirdEmail)).toHaveLength(2);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      const kinds = d.timeline.map((e: { kind: string }) => e.kind);
      expect(kinds.filter((k: string) => k === 'escalated')).toHaveLength(4);
      // The overdue mark comes before the repeat it caused, with the minutes from opening.
      expect(kinds.slice(-3)).toEqual(['overdue', 'escalated', 'paged']);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'overdue')).toMatchObject({ at: d.alert.overdueAt, detail: { minutes: 15 } });
      const paged = d.timeline.filter((e: { kind: string }) => e.kind === 'paged');
      expect(paged).toHaveLength(4);
      expect(paged[0].detail).toMatchObject({ channel: 'email', outcome: 'sent', level: 1, userName: 'Olive Owner' });
      // Pages are shown from their attempt rows and the overdue mark from the alert: entries of those kinds that an
      // earlier version stored as well are not shown a second time.
      for (const kind of ['paged', 'overdue'] as const)
        await h.env.deps.db
          .insertInto('alert_events')
          .values({ id: `legacy-${kind}-${alertId}`, tenant_id: owner.tenantId, alert_id: alertId, at: d.alert.overdueAt, kind, actor_type: 'system', actor_id: null, actor_name: 'Alertdesk', detail: '{}' })
          .execute();
      expect((await detail(owner.agent, owner.tenantId, alertId)).timeline).toEqual(d.timeline);
      // Nothing is left to run, and running again pages nobody twice.
      await advance(60 * MINUTE);
      expect(mailsTo(thirdEmail)).toHaveLength(2);
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, alertId)).toEqual([]);
    });

    it('starts a new alert’s escalation at once, not at the next poll, also when another instance took the alert in', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      // An instance whose worker runs by itself (wall clock) and would look again only after a minute.
      const other = fakeTransports();
      const running = await buildApp({ ...h.env.config, jobWorker: true }, { logger: false, transports: other.transports, pollMs: 60_000 });
      await running.app.ready();
      try {
        await new Promise((r) => setTimeout(r, 300)); // its first pass, and (PostgreSQL) its LISTEN connection settles
        const sentBefore = other.sent.email.filter((m) => m.to === ownerEmail).length;
        // PostgreSQL: the alert arrives at the other instance and its NOTIFY wakes this one; SQLite is one process.
        const receiving = db.name === 'postgres' ? h.env.app : running.app;
        const res = await ingest(receiving, '/api/ingest/events', { title: 'Woken at once', priority: 'critical' }, { authorization: `Bearer ${integration.key}` });
        expect(res.statusCode).toBe(202);
        await expect.poll(() => other.sent.email.filter((m) => m.to === ownerEmail).length - sentBefore, { timeout: 2_000, interval: 50 }).toBe(1);
      } finally {
        await running.app.close();
      }
    });

    it('stops the one escalation it cannot run and goes on with every other alert, at the start and at a later level', async () => {
      const broken = await setup();
      const healthy = await setup();
      const [brokenAlert, okAlert] = [await trigger(broken.integration.key), await trigger(healthy.integration.key)];
      // A stored level the engine chokes on (written by hand or by a bug: the API never stores it) in one tenant.
      const poison = JSON.stringify({ userIds: 5, scheduleIds: [], notificationChannels: ['email'] });
      await h.env.deps.db.updateTable('escalation_policies').set({ level_1: poison }).where('id', '=', broken.policyId).execute();
      const healthyEmail = await emailOf(healthy.owner.userId);
      await advance(0);
      // The other tenant's alert is paged in the same sweep; the broken one is stopped, and its timeline says why.
      expect(mailsTo(healthyEmail)).toHaveLength(1);
      const stopped = await h.env.deps.db.selectFrom('alerts').select(['escalation_state', 'next_step_at', 'overdue_check_at']).where('id', '=', brokenAlert).executeTakeFirstOrThrow();
      expect(stopped).toEqual({ escalation_state: 'stopped', next_step_at: null, overdue_check_at: null });
      const reason = (await detail(broken.owner.agent, broken.owner.tenantId, brokenAlert)).timeline.find((e: { kind: string }) => e.kind === 'unrouted');
      expect(reason.detail.reason).toMatch(/^The escalation stopped on an error: .+\. Nobody more will be paged for this alert\.$/);

      // Later: a level 2 the engine chokes on stops that escalation alone, and nothing is left due for it.
      const secondAlert = await trigger(healthy.integration.key);
      await advance(0);
      await h.env.deps.db.updateTable('escalation_policies').set({ level_2: JSON.stringify({ userIds: 5, timeAfterPrevious: 5, notificationChannels: ['email'] }) }).where('id', '=', healthy.policyId).execute();
      const otherAlert = await trigger(broken.integration.key);
      await h.env.deps.db.updateTable('escalation_policies').set({ level_1: JSON.stringify({ userIds: [broken.owner.userId], scheduleIds: [], notificationChannels: ['email'] }) }).where('id', '=', broken.policyId).execute();
      await advance(5 * MINUTE);
      expect(await listAlertJobs(h.env.deps.db, healthy.owner.tenantId, okAlert)).toEqual([]);
      for (const id of [okAlert, secondAlert]) {
        const row = await h.env.deps.db.selectFrom('alerts').select(['escalation_state', 'next_step_at', 'overdue_check_at']).where('id', '=', id).executeTakeFirstOrThrow();
        expect(row).toEqual({ escalation_state: 'stopped', next_step_at: null, overdue_check_at: null });
      }
      // Once its policy is repaired, the other tenant's next alert is paged as usual.
      expect(mailsTo(await emailOf(broken.owner.userId))).toHaveLength(1);
      expect((await detail(broken.owner.agent, broken.owner.tenantId, otherAlert)).timeline.some((e: { kind: string }) => e.kind === 'paged')).toBe(true);
    });

    it('stops the escalation when the alert is acknowledged: its steps are gone in the same transaction', async () => {
      const { owner, second, integration } = await setup();
      const alertId = await trigger(integration.key);
      await advance(0);
      // Level 2's step and the overdue check are columns of the alert: level 2 after its 5 minutes, the check at the
      // critical target (15 minutes).
      const pending = async () => h.env.deps.db.selectFrom('alerts').select(['created_at', 'next_step_at', 'overdue_check_at']).where('id', '=', alertId).executeTakeFirstOrThrow();
      const before = await pending();
      expect(before.next_step_at).toBe(new Date(h.nowMs + 5 * MINUTE).toISOString());
      expect(before.overdue_check_at).toBe(new Date(Date.parse(before.created_at) + 15 * MINUTE).toISOString());
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, alertId)).toEqual([]);
      const ack = await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/acknowledge`);
      expect(ack.statusCode).toBe(200);
      expect(await pending()).toMatchObject({ next_step_at: null, overdue_check_at: null });
      await advance(60 * MINUTE);
      expect(mailsTo(await emailOf(second.userId))).toHaveLength(0);
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.overdueAt).toBeNull();
      expect(d.timeline.some((e: { kind: string }) => e.kind === 'overdue')).toBe(false);
    });

    it('stops when a monitoring tool resolves the alert, and when its policy is deleted', async () => {
      const { owner, second, integration, policyId } = await setup();
      const resolved = await trigger(integration.key, { dedupKey: 'db-1' });
      const orphaned = await trigger(integration.key, { dedupKey: 'db-2' });
      await advance(0);
      const res = await ingest(h.env.app, '/api/ingest/events', { action: 'resolve', dedupKey: 'db-1' }, { authorization: `Bearer ${integration.key}` });
      expect(res.statusCode).toBe(202);
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, resolved)).toEqual([]);
      expect((await owner.agent.request('DELETE', `/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`)).statusCode).toBe(200);
      await advance(30 * MINUTE);
      expect(mailsTo(await emailOf(second.userId))).toHaveLength(0);
      const d = await detail(owner.agent, owner.tenantId, orphaned);
      expect(d.timeline.filter((e: { kind: string }) => e.kind === 'escalated')).toHaveLength(1);
    });

    it('says so in the timeline when no policy applies or the priority has no time, and pages nobody', async () => {
      const owner = await registerOwner(h.env.app);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const before = h.fake.sent.email.length;
      const unrouted = await trigger(integration.key);
      await advance(0);
      let d = await detail(owner.agent, owner.tenantId, unrouted);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'unrouted').detail.reason).toBe('No escalation policy applies to this alert: nobody was paged.');

      const withPolicy = await setup();
      const info = await trigger(withPolicy.integration.key, { priority: 'info' });
      await advance(0);
      d = await detail(withPolicy.owner.agent, withPolicy.owner.tenantId, info);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'unrouted').detail.reason).toBe('The escalation policy has no time for info alerts: nobody was paged.');
      expect(h.fake.sent.email.length).toBe(before);
    });

    it('pages whoever is on call on a level’s schedule, and intersects channels with each person’s preferences', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Sched Owner' });
      const onCall = await addMember(h.env.deps, h.env.app, owner.tenantId);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const today = new Date(h.nowMs).toISOString().slice(0, 10);
      const later = new Date(h.nowMs + 40 * 86_400_000).toISOString().slice(0, 10);
      const allDay = [{ startHour: 0, endHour: 24, primaryOnCall: onCall.userId, secondaryOnCall: null }];
      const schedule = await owner.agent.post(`/api/tenants/${owner.tenantId}/onCallSchedules`, {
        name: 'Around the clock',
        startTime: today,
        endTime: later,
        timeZone: 'UTC',
        rotations: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, allDay])),
      });
      expect(schedule.statusCode).toBe(201);
      // The person on call wants SMS for critical alerts and has push on but no browser subscribed.
      await savePreferences(onCall.agent, owner.tenantId, { email: false, sms: ['critical'], push: true, phoneNumber: '+15550001111' });
      const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
        name: 'On call',
        isDefault: true,
        level_1: { userIds: [owner.userId], scheduleIds: [schedule.data.id], notificationChannels: ['email', 'push', 'sms'] },
      });
      expect(policy.statusCode).toBe(201);
      const alertId = await trigger(integration.key);
      await advance(0);
      const sms = h.fake.sent.sms.filter((s) => s.to === '+15550001111');
      expect(sms).toHaveLength(1);
      expect(sms[0].body.length).toBeLessThanOrEqual(160);
      expect(sms[0].body).toMatch(/^\[CRIT\] Disk full.*\. Ack: http:\/\/localhost:3000\/a\/[A-Za-z0-9_-]{12}$/);
      const attempts = await listAttempts(h.env.deps.db, owner.tenantId, alertId);
      const mine = Object.fromEntries(attempts.filter((a) => a.user_id === onCall.userId).map((a) => [a.channel, [a.outcome, a.reason]]));
      expect(mine).toEqual({
        email: ['skipped', 'Email alert notifications are off in their preferences'],
        push: ['skipped', 'No browser is subscribed to push notifications'],
        sms: ['sent', null],
      });
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'escalated').detail.names).toEqual(expect.arrayContaining(['Sched Owner']));
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'escalated').detail.names).toHaveLength(2);
    });

    it('takes a deleted schedule off the policies that named it, in the same transaction', async () => {
      const owner = await registerOwner(h.env.app);
      const today = new Date().toISOString().slice(0, 10);
      const allDay = [{ startHour: 0, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: null }];
      const schedule = await owner.agent.post(`/api/tenants/${owner.tenantId}/onCallSchedules`, {
        name: 'Doomed',
        startTime: today,
        endTime: new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10),
        rotations: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, allDay])),
      });
      const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
        name: 'Uses it',
        level_1: { userIds: [owner.userId], scheduleIds: [schedule.data.id] },
        level_3: { scheduleIds: [schedule.data.id] },
      });
      expect(policy.data.level_3.scheduleIds).toEqual([schedule.data.id]);
      expect((await owner.agent.request('DELETE', `/api/tenants/${owner.tenantId}/onCallSchedules/${schedule.data.id}`)).statusCode).toBe(200);
      const after = (await owner.agent.get(`/api/tenants/${owner.tenantId}/escalationPolicies/${policy.data.id}`)).data;
      expect([after.level_1.scheduleIds, after.level_2.scheduleIds, after.level_3.scheduleIds]).toEqual([[], [], []]);
      expect(after.level_1.userIds).toEqual([owner.userId]);
    });

    it('retries a failed email with backoff and records a permanent failure at once', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      h.fake.failures.email.push(new DeliveryError('email: connection refused', false));
      const alertId = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(ownerEmail)).toHaveLength(0);
      await advance(5_000);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      let attempt = (await listAttempts(h.env.deps.db, owner.tenantId, alertId)).find((a) => a.user_id === owner.userId)!;
      expect([attempt.outcome, attempt.tries]).toEqual(['sent', 2]);

      h.fake.failures.email.push(new DeliveryError('email: 550 mailbox unavailable', true));
      const second = await trigger(integration.key);
      await advance(0);
      attempt = (await listAttempts(h.env.deps.db, owner.tenantId, second)).find((a) => a.user_id === owner.userId)!;
      expect([attempt.outcome, attempt.reason, attempt.tries]).toEqual(['failed', 'email: 550 mailbox unavailable', 1]);
      const d = await detail(owner.agent, owner.tenantId, second);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'paged').detail).toMatchObject({ outcome: 'failed', reason: 'email: 550 mailbox unavailable' });
    });
  });
}
