import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, testDatabases, type Agent } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { JobWorker, singly } from '../../jobs/job-worker.ts';
import { listAlertJobs } from '../../jobs/jobs.repository.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import { DeliveryError } from '../../notifications/channel.ts';
import { PAGES_JOB } from './page-delivery.ts';
import { ackLinkSigner } from './ack-links.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { buildApp } from '../../app.ts';

const MINUTE = 60_000;

for (const db of testDatabases()) {
  describe(`escalation engine [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let fake: ReturnType<typeof fakeTransports>;
    let nowMs = Date.now();
    const clock = () => new Date(nowMs);
    const advance = async (ms: number) => {
      nowMs += ms;
      await env.app.jobs.worker.runDue();
    };

    beforeAll(async () => {
      fake = fakeTransports();
      env = await startTestApp(db, {}, undefined, { clock, transports: fake.transports });
    });
    afterAll(async () => env?.close());
    // Alerts are stamped with the real time: every test starts its clock there and moves it forward.
    beforeEach(() => {
      nowMs = Date.now();
    });

    /** A tenant with an owner and two members, an integration key, and a default policy paging owner then member. */
    async function setup(policy: Record<string, unknown> = {}) {
      const owner = await registerOwner(env.app, { name: 'Olive Owner' });
      const second = await addMember(env.deps, env.app, owner.tenantId);
      const third = await addMember(env.deps, env.app, owner.tenantId);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
        name: 'Night policy',
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], notificationChannels: ['email'] },
        level_2: { userIds: [second.userId], timeAfterPrevious: 5, notificationChannels: ['email'] },
        level_3: { userIds: [third.userId], timeAfterPrevious: 5, notificationChannels: ['email'] },
        ...policy,
      });
      expect(res.statusCode).toBe(201);
      return { owner, second, third, integration, policyId: res.data.id as string };
    }

    async function trigger(key: string, over: Record<string, unknown> = {}) {
      const res = await ingest(env.app, '/api/ingest/events', { title: `Disk full ${Math.random()}`, priority: 'critical', ...over }, { authorization: `Bearer ${key}` });
      expect(res.statusCode).toBe(202);
      return res.data.alertId as string;
    }

    const detail = async (agent: Agent, tenantId: string, alertId: string) => (await agent.get(`/api/tenants/${tenantId}/alerts/${alertId}`)).data;
    const mailsTo = (email: string) => fake.sent.email.filter((m) => m.to === email);
    const emailOf = async (userId: string) => (await env.deps.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;

    it('pages level 1 when the alert opens, level 2 after its delay, then marks it overdue and pages the last level again', async () => {
      const { owner, second, third, integration } = await setup();
      const alertId = await trigger(integration.key);
      const [ownerEmail, secondEmail, thirdEmail] = await Promise.all([emailOf(owner.userId), emailOf(second.userId), emailOf(third.userId)]);
      await advance(0);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      expect(mailsTo(ownerEmail)[0].subject).toMatch(/^\[CRITICAL\] Disk full/);
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
        await env.deps.db
          .insertInto('alert_events')
          .values({ id: `legacy-${kind}-${alertId}`, tenant_id: owner.tenantId, alert_id: alertId, at: d.alert.overdueAt, kind, actor_type: 'system', actor_id: null, actor_name: 'Alertdesk', detail: '{}' })
          .execute();
      expect((await detail(owner.agent, owner.tenantId, alertId)).timeline).toEqual(d.timeline);
      // Nothing is left to run, and running again pages nobody twice.
      await advance(60 * MINUTE);
      expect(mailsTo(thirdEmail)).toHaveLength(2);
      expect(await listAlertJobs(env.deps.db, owner.tenantId, alertId)).toEqual([]);
    });

    it('starts a new alert’s escalation at once, not at the next poll, also when another instance took the alert in', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      // An instance whose worker runs by itself (wall clock) and would look again only after a minute.
      const other = fakeTransports();
      const running = await buildApp({ ...env.config, jobWorker: true }, { logger: false, transports: other.transports, pollMs: 60_000 });
      await running.app.ready();
      try {
        await new Promise((r) => setTimeout(r, 300)); // its first pass, and (PostgreSQL) its LISTEN connection settles
        const sentBefore = other.sent.email.filter((m) => m.to === ownerEmail).length;
        // PostgreSQL: the alert arrives at the other instance and its NOTIFY wakes this one; SQLite is one process.
        const receiving = db.name === 'postgres' ? env.app : running.app;
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
      await env.deps.db.updateTable('escalation_policies').set({ level_1: poison }).where('id', '=', broken.policyId).execute();
      const healthyEmail = await emailOf(healthy.owner.userId);
      await advance(0);
      // The other tenant's alert is paged in the same sweep; the broken one is stopped, and its timeline says why.
      expect(mailsTo(healthyEmail)).toHaveLength(1);
      const stopped = await env.deps.db.selectFrom('alerts').select(['escalation_state', 'next_step_at', 'overdue_check_at']).where('id', '=', brokenAlert).executeTakeFirstOrThrow();
      expect(stopped).toEqual({ escalation_state: 'stopped', next_step_at: null, overdue_check_at: null });
      const reason = (await detail(broken.owner.agent, broken.owner.tenantId, brokenAlert)).timeline.find((e: { kind: string }) => e.kind === 'unrouted');
      expect(reason.detail.reason).toMatch(/^The escalation stopped on an error: .+\. Nobody more will be paged for this alert\.$/);

      // Later: a level 2 the engine chokes on stops that escalation alone, and nothing is left due for it.
      const secondAlert = await trigger(healthy.integration.key);
      await advance(0);
      await env.deps.db.updateTable('escalation_policies').set({ level_2: JSON.stringify({ userIds: 5, timeAfterPrevious: 5, notificationChannels: ['email'] }) }).where('id', '=', healthy.policyId).execute();
      const otherAlert = await trigger(broken.integration.key);
      await env.deps.db.updateTable('escalation_policies').set({ level_1: JSON.stringify({ userIds: [broken.owner.userId], scheduleIds: [], notificationChannels: ['email'] }) }).where('id', '=', broken.policyId).execute();
      await advance(5 * MINUTE);
      expect(await listAlertJobs(env.deps.db, healthy.owner.tenantId, okAlert)).toEqual([]);
      for (const id of [okAlert, secondAlert]) {
        const row = await env.deps.db.selectFrom('alerts').select(['escalation_state', 'next_step_at', 'overdue_check_at']).where('id', '=', id).executeTakeFirstOrThrow();
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
      const pending = async () => env.deps.db.selectFrom('alerts').select(['created_at', 'next_step_at', 'overdue_check_at']).where('id', '=', alertId).executeTakeFirstOrThrow();
      const before = await pending();
      expect(before.next_step_at).toBe(new Date(nowMs + 5 * MINUTE).toISOString());
      expect(before.overdue_check_at).toBe(new Date(Date.parse(before.created_at) + 15 * MINUTE).toISOString());
      expect(await listAlertJobs(env.deps.db, owner.tenantId, alertId)).toEqual([]);
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
      const res = await ingest(env.app, '/api/ingest/events', { action: 'resolve', dedupKey: 'db-1' }, { authorization: `Bearer ${integration.key}` });
      expect(res.statusCode).toBe(202);
      expect(await listAlertJobs(env.deps.db, owner.tenantId, resolved)).toEqual([]);
      expect((await owner.agent.request('DELETE', `/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`)).statusCode).toBe(200);
      await advance(30 * MINUTE);
      expect(mailsTo(await emailOf(second.userId))).toHaveLength(0);
      const d = await detail(owner.agent, owner.tenantId, orphaned);
      expect(d.timeline.filter((e: { kind: string }) => e.kind === 'escalated')).toHaveLength(1);
    });

    it('says so in the timeline when no policy applies or the priority has no time, and pages nobody', async () => {
      const owner = await registerOwner(env.app);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const before = fake.sent.email.length;
      const unrouted = await trigger(integration.key);
      await advance(0);
      let d = await detail(owner.agent, owner.tenantId, unrouted);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'unrouted').detail.reason).toBe('No escalation policy applies to this alert: nobody was paged.');

      const withPolicy = await setup();
      const info = await trigger(withPolicy.integration.key, { priority: 'info' });
      await advance(0);
      d = await detail(withPolicy.owner.agent, withPolicy.owner.tenantId, info);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'unrouted').detail.reason).toBe('The escalation policy has no time for info alerts: nobody was paged.');
      expect(fake.sent.email.length).toBe(before);
    });

    it('pages whoever is on call on a level’s schedule, and intersects channels with each person’s preferences', async () => {
      const owner = await registerOwner(env.app, { name: 'Sched Owner' });
      const onCall = await addMember(env.deps, env.app, owner.tenantId);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const today = new Date(nowMs).toISOString().slice(0, 10);
      const later = new Date(nowMs + 40 * 86_400_000).toISOString().slice(0, 10);
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
      const prefs = await onCall.agent.request('PUT', `/api/tenants/${owner.tenantId}/notification-preferences`, {
        email: { enabled: false, alertNotifications: true, weeklyDigest: false, systemUpdates: false },
        sms: { enabled: true, alertTypes: ['critical'] },
        push: { enabled: true },
        phoneNumber: '+15550001111',
        alertSubscriptions: [],
      });
      expect(prefs.statusCode).toBe(200);
      const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
        name: 'On call',
        isDefault: true,
        level_1: { userIds: [owner.userId], scheduleIds: [schedule.data.id], notificationChannels: ['email', 'push', 'sms'] },
      });
      expect(policy.statusCode).toBe(201);
      const alertId = await trigger(integration.key);
      await advance(0);
      const sms = fake.sent.sms.filter((s) => s.to === '+15550001111');
      expect(sms).toHaveLength(1);
      expect(sms[0].body.length).toBeLessThanOrEqual(160);
      expect(sms[0].body).toMatch(/^\[CRITICAL\] Disk full.* Ack: http:\/\/localhost:3000\/ack\/[A-Za-z0-9_-]+$/);
      const attempts = await listAttempts(env.deps.db, owner.tenantId, alertId);
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
      const owner = await registerOwner(env.app);
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
      fake.failures.email.push(new DeliveryError('email: connection refused', false));
      const alertId = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(ownerEmail)).toHaveLength(0);
      await advance(5_000);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      let attempt = (await listAttempts(env.deps.db, owner.tenantId, alertId)).find((a) => a.user_id === owner.userId)!;
      expect([attempt.outcome, attempt.tries]).toEqual(['sent', 2]);

      fake.failures.email.push(new DeliveryError('email: 550 mailbox unavailable', true));
      const second = await trigger(integration.key);
      await advance(0);
      attempt = (await listAttempts(env.deps.db, owner.tenantId, second)).find((a) => a.user_id === owner.userId)!;
      expect([attempt.outcome, attempt.reason, attempt.tries]).toEqual(['failed', 'email: 550 mailbox unavailable', 1]);
      const d = await detail(owner.agent, owner.tenantId, second);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'paged').detail).toMatchObject({ outcome: 'failed', reason: 'email: 550 mailbox unavailable' });
    });

    it('pages each person once per step when two workers race, and a worker started later catches up on what came due', async () => {
      const { owner, second, third, integration } = await setup();
      const [ownerEmail, secondEmail, thirdEmail] = await Promise.all([emailOf(owner.userId), emailOf(second.userId), emailOf(third.userId)]);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await trigger(integration.key));
      // Nothing ran while "the servers were down"; now three fresh workers start at once: two running batches (on
      // PostgreSQL two lanes each), one running the same handlers job by job.
      const { engine } = env.app.paging;
      const make = (batched: boolean) =>
        new JobWorker({
          db: env.deps.db,
          dialect: env.deps.dialect,
          clock,
          handlers: batched ? {} : { [PAGES_JOB]: singly(engine.pagesHandler) },
          ...(batched ? { batchHandlers: { [PAGES_JOB]: engine.pagesHandler } } : {}),
          sweeps: [engine.startPending, engine.checkSteps, engine.checkOverdue],
          log: console,
          batch: 7,
        });
      const race = () => Promise.all([make(true).runDue(), make(true).runDue(), make(false).runDue()]);
      const pagesTo = (email: string) => {
        const mails = mailsTo(email).filter((m) => ids.some((id) => m.text.includes(id)));
        return { count: mails.length, distinct: new Set(mails.map((m) => m.text)).size };
      };
      await race();
      expect(pagesTo(ownerEmail)).toEqual({ count: 20, distinct: 20 });
      // The servers were down again while level 2 came due (5 minutes), then level 3 and the overdue check (15).
      nowMs += 5 * MINUTE;
      await race();
      expect(pagesTo(secondEmail)).toEqual({ count: 20, distinct: 20 });
      nowMs += 30 * MINUTE;
      await race();
      // Level 3 once, and once more as the overdue repeat of the level paged last.
      expect(pagesTo(thirdEmail)).toEqual({ count: 40, distinct: 20 });
      expect(pagesTo(ownerEmail).count).toBe(20);
    });

    it('retries a failing delivery of a batch alone: the other pages of the batch are sent and recorded once', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const ids = [await trigger(integration.key), await trigger(integration.key), await trigger(integration.key)];
      const mine = () => mailsTo(ownerEmail).filter((m) => ids.some((id) => m.text.includes(id)));
      // The three pages are one batch; the first that reaches the provider fails transiently.
      fake.failures.email.push(new DeliveryError('email: connection refused', false));
      await advance(0);
      expect(mine()).toHaveLength(2);
      const attempts = async () => (await Promise.all(ids.map((id) => listAttempts(env.deps.db, owner.tenantId, id)))).flat().map((a) => [a.alert_id, a.outcome, a.tries]);
      const failed = (await attempts()).find(([, outcome]) => outcome === 'pending')!;
      expect((await attempts()).filter(([, outcome]) => outcome === 'sent')).toHaveLength(2);
      expect(failed[2]).toBe(1);
      const failedId = failed[0] as string;
      // The sweep's pages were one 'escalation.pages' job: it waits for its retry (the finished pages are skipped then).
      const batches = await env.deps.db.selectFrom('jobs').select(['payload', 'attempts']).where('kind', '=', 'escalation.pages').execute();
      expect(batches).toHaveLength(1);
      expect((JSON.parse(batches[0].payload) as { groups: Array<{ alertIds: string[] }> }).groups.flatMap((g) => g.alertIds).sort()).toEqual([...ids].sort());
      for (const id of ids) expect((await listAlertJobs(env.deps.db, owner.tenantId, id)).filter((j) => j.kind === 'page.deliver')).toEqual([]);
      // After the backoff only the failed page goes out again.
      await advance(5_000);
      expect(mine()).toHaveLength(3);
      expect(new Set(mine().map((m) => ids.find((id) => m.text.includes(id)))).size).toBe(3);
      expect((await attempts()).sort()).toEqual(ids.map((id) => [id, 'sent', id === failedId ? 2 : 1]).sort());
      await advance(60_000);
      expect(mine()).toHaveLength(3);
    });

    it('records the rest of a batch when one page cannot be recorded (its alert was deleted while it was sent)', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const [kept1, doomed, kept2] = [await trigger(integration.key), await trigger(integration.key), await trigger(integration.key)];
      const send = fake.transports.email;
      fake.transports.email = async (mail) => {
        if (mail.text.includes(doomed)) await env.deps.db.deleteFrom('alerts').where('id', '=', doomed).execute();
        return send(mail);
      };
      try {
        await advance(0);
      } finally {
        fake.transports.email = send;
      }
      expect(mailsTo(ownerEmail).filter((m) => [kept1, doomed, kept2].some((id) => m.text.includes(id)))).toHaveLength(3);
      for (const id of [kept1, kept2]) {
        expect((await listAttempts(env.deps.db, owner.tenantId, id)).map((a) => a.outcome)).toEqual(['sent']);
        const d = await detail(owner.agent, owner.tenantId, id);
        expect(d.timeline.filter((e: { kind: string }) => e.kind === 'paged').map((e: { detail: { outcome: string } }) => e.detail.outcome)).toEqual(['sent']);
      }
      expect(await env.deps.db.selectFrom('jobs').select('id').where('alert_id', 'in', [kept1, doomed, kept2]).where('kind', '=', 'page.deliver').execute()).toEqual([]);
    });

    it('starts alerts of different integrations and clients in one sweep: each pages its own policy’s people, subscribers hear of what matches', async () => {
      const owner = await registerOwner(env.app, { name: 'Batch Owner' });
      const [viaIntegration, viaClient, tagFan, clientFan] = await Promise.all([0, 1, 2, 3].map(() => addMember(env.deps, env.app, owner.tenantId)));
      const policy = async (name: string, userId: string, isDefault = false) => {
        const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, { name, isDefault, level_1: { userIds: [userId], notificationChannels: ['email'] } });
        expect(res.statusCode).toBe(201);
        return res.data.id as string;
      };
      await policy('Default', owner.userId, true);
      const integrationPolicy = await policy('Integration', viaIntegration.userId);
      const clientPolicy = await policy('Client', viaClient.userId);
      const client = await owner.agent.post(`/api/tenants/${owner.tenantId}/clients`, { name: 'Initech', status: 'active', escalationPolicyId: clientPolicy });
      expect(client.statusCode).toBe(201);
      const plain = await createIntegration(owner.agent, owner.tenantId, { name: 'Plain' });
      const routed = await owner.agent.post(`/api/tenants/${owner.tenantId}/integrations`, { name: 'Routed', escalationPolicyId: integrationPolicy });
      expect(routed.statusCode).toBe(201);
      const forClient = await createIntegration(owner.agent, owner.tenantId, { name: 'Initech', clientId: client.data.id });
      const subscribe = async (who: typeof tagFan, subscription: Record<string, string>) => {
        const res = await who.agent.request('PUT', `/api/tenants/${owner.tenantId}/notification-preferences`, {
          email: { enabled: true, alertNotifications: true, weeklyDigest: false, systemUpdates: false },
          sms: { enabled: false, alertTypes: [] },
          push: { enabled: false },
          phoneNumber: null,
          alertSubscriptions: [subscription],
        });
        expect(res.statusCode).toBe(200);
      };
      await subscribe(tagFan, { type: 'tag', value: 'database' });
      await subscribe(clientFan, { type: 'client', id: client.data.id });
      const a1 = await trigger(plain.key, { tags: ['Database', 'eu'] });
      const a2 = await trigger(routed.data.key);
      const a3 = await trigger(forClient.key);
      await advance(0);
      const pagedFor = async (userId: string) => {
        const email = await emailOf(userId);
        return [a1, a2, a3].filter((id) => mailsTo(email).some((m) => m.text.includes(id)));
      };
      expect(await pagedFor(owner.userId)).toEqual([a1]);
      expect(await pagedFor(viaIntegration.userId)).toEqual([a2]);
      expect(await pagedFor(viaClient.userId)).toEqual([a3]);
      expect(await pagedFor(tagFan.userId)).toEqual([a1]);
      expect(await pagedFor(clientFan.userId)).toEqual([a3]);
      const escalated = async (id: string) => (await detail(owner.agent, owner.tenantId, id)).timeline.filter((e: { kind: string }) => e.kind === 'escalated').map((e: { detail: { policyName: string } }) => e.detail.policyName);
      expect([await escalated(a1), await escalated(a2), await escalated(a3)]).toEqual([['Default'], ['Integration'], ['Client']]);
    });

    it('acknowledges from the link of a page as that person: the page shows it first, the link works once', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      const mail = mailsTo(ownerEmail).find((m) => m.text.includes(alertId))!;
      const token = /\/ack\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
      const anon = { origin: 'http://localhost:3000' };
      const info = await env.app.inject({ method: 'GET', url: `/api/ack/${token}` });
      expect(info.statusCode).toBe(200);
      expect(info.json()).toMatchObject({ alertId, status: 'new', personName: 'Olive Owner', usable: true });
      // Looking does not acknowledge (mail scanners follow links).
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.status).toBe('new');
      const ack = await env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: anon });
      expect(ack.statusCode).toBe(200);
      expect(ack.json()).toEqual({ alertId, status: 'acknowledged', message: 'Alert acknowledged. Thank you!' });
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.acknowledgedBy).toBe(owner.userId);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'acknowledged').actorName).toBe('Olive Owner');
      expect(await listAlertJobs(env.deps.db, owner.tenantId, alertId)).toEqual([]);
      const replay = await env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: anon });
      expect(replay.statusCode).toBe(409);
      expect(replay.json().error.message).toBe('This acknowledge link was already used.');
      const forged = await env.app.inject({ method: 'POST', url: `/api/ack/${token.slice(0, -2)}xx`, headers: anon });
      expect(forged.statusCode).toBe(404);
      expect(forged.json().error.message).toBe('This acknowledge link is invalid or has expired.');
      const crossSite = await env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: { origin: 'https://evil.example' } });
      expect(crossSite.statusCode).toBe(403);
    });

    it('signs acknowledge links: nothing is stored per page; a link altered, expired, or for someone no longer a member does not acknowledge', async () => {
      const { owner, second, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      const token = /\/ack\/([A-Za-z0-9_-]+)/.exec(mailsTo(ownerEmail).find((m) => m.text.includes(alertId))!.text)![1];
      expect(token).toHaveLength(64);
      expect(await env.deps.db.selectFrom('ack_tokens').select('token_hash').where('alert_id', '=', alertId).execute()).toEqual([]);
      const post = (t: string) => env.app.inject({ method: 'POST', url: `/api/ack/${t}`, headers: { origin: 'http://localhost:3000' } });
      // Another person's link for the same alert cannot be made from this one: any changed character breaks the signature.
      const raw = Buffer.from(token, 'base64url');
      raw[20] ^= 1;
      const altered = await post(raw.toString('base64url'));
      expect(altered.statusCode).toBe(404);
      expect(altered.json().error.message).toBe('This acknowledge link is invalid or has expired.');
      // A correctly signed link past its expiry, and one for a person who left the organization.
      const sign = await ackLinkSigner(env.deps.db);
      const expired = await post(sign(alertId, owner.userId, new Date(Date.now() - 1000))!);
      expect(expired.statusCode).toBe(404);
      const stranger = await registerOwner(env.app);
      const notMember = await post(sign(alertId, stranger.userId, new Date(Date.now() + 3_600_000))!);
      expect(notMember.statusCode).toBe(403);
      expect(notMember.json().error.message).toBe('You are no longer a member of this organization.');
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.status).toBe('new');
      // Another member's own link works once; its use is what is stored.
      const theirs = sign(alertId, second.userId, new Date(Date.now() + 3_600_000))!;
      expect((await post(theirs)).statusCode).toBe(200);
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.acknowledgedBy).toBe(second.userId);
      expect((await env.app.inject({ method: 'GET', url: `/api/ack/${theirs}` })).json()).toMatchObject({ usable: false, status: 'acknowledged' });
      expect((await post(theirs)).json().error.message).toBe('This acknowledge link was already used.');
      expect(await env.deps.db.selectFrom('ack_tokens').select('user_id').where('alert_id', '=', alertId).execute()).toEqual([{ user_id: second.userId }]);
    });

    it('tells owners and admins by which channels each member can be paged now; others get 403, strangers 404', async () => {
      const owner = await registerOwner(env.app, { name: 'Reach Owner' });
      const member = await addMember(env.deps, env.app, owner.tenantId);
      await member.agent.request('PUT', `/api/tenants/${owner.tenantId}/notification-preferences`, {
        email: { enabled: false, alertNotifications: true, weeklyDigest: false, systemUpdates: false },
        sms: { enabled: true, alertTypes: ['critical'] },
        push: { enabled: true },
        phoneNumber: '+15550002222',
        alertSubscriptions: [],
      });
      const res = await owner.agent.get(`/api/tenants/${owner.tenantId}/reachability`);
      expect(res.statusCode).toBe(200);
      // This server sends SMS (through the test's stand-in of the provider): whoever turned SMS on with a number is reachable.
      expect(res.data.smsEnabled).toBe(true);
      const byId = Object.fromEntries(res.data.items.map((i: { userId: string }) => [i.userId, i]));
      expect(byId[owner.userId]).toEqual({ userId: owner.userId, displayName: 'Reach Owner', email: true, push: false, sms: false });
      expect(byId[member.userId]).toMatchObject({ email: false, push: false, sms: true });
      // Without a provider nobody is reachable by SMS, whatever they saved.
      const bare = await buildApp({ ...env.config }, { logger: false, transports: fakeTransports({ sms: false }).transports });
      try {
        const reach = await bare.app.notifications.notifier.reachability([{ userId: member.userId, email: 'm@example.com' }]);
        expect(bare.app.notifications.notifier.smsConfigured).toBe(false);
        expect(reach.get(member.userId)).toEqual({ email: false, push: false, sms: false });
      } finally {
        await bare.app.close();
      }
      expect((await member.agent.get(`/api/tenants/${owner.tenantId}/reachability`)).statusCode).toBe(403);
      const stranger = await registerOwner(env.app);
      expect((await stranger.agent.get(`/api/tenants/${owner.tenantId}/reachability`)).statusCode).toBe(404);
    });

    it('tells the incoming primary once, by email, when their shift starts', async () => {
      const owner = await registerOwner(env.app, { name: 'Day Person' });
      const night = await addMember(env.deps, env.app, owner.tenantId);
      const today = new Date().toISOString().slice(0, 10);
      const shifts = [
        { startHour: 0, endHour: 12, primaryOnCall: owner.userId, secondaryOnCall: null },
        { startHour: 12, endHour: 24, primaryOnCall: night.userId, secondaryOnCall: null },
      ];
      const created = await owner.agent.post(`/api/tenants/${owner.tenantId}/onCallSchedules`, {
        name: 'Handover desk',
        startTime: today,
        endTime: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        timeZone: 'UTC',
        rotations: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, shifts])),
      });
      expect(created.statusCode).toBe(201);
      const nightEmail = await emailOf(night.userId);
      const ownerEmail = await emailOf(owner.userId);
      nowMs = Date.parse(`${today}T11:30:00Z`);
      await advance(0);
      expect(mailsTo(nightEmail)).toHaveLength(0);
      await advance(30 * MINUTE);
      expect(mailsTo(nightEmail).map((m) => m.subject)).toEqual(['You are on call now: Handover desk']);
      expect(mailsTo(nightEmail)[0].text).toContain('Your on-call shift on Handover desk starts now until');
      await advance(2 * MINUTE);
      expect(mailsTo(nightEmail)).toHaveLength(1);
      expect(mailsTo(ownerEmail)).toHaveLength(0);
      // Midnight hands back to the day person.
      nowMs = Date.parse(`${today}T23:50:00Z`);
      await advance(0);
      await advance(10 * MINUTE);
      expect(mailsTo(ownerEmail).map((m) => m.subject)).toEqual(['You are on call now: Handover desk']);
    });

    it('notifies subscribers of a matching new alert once, without escalation', async () => {
      const owner = await registerOwner(env.app);
      const subscriber = await addMember(env.deps, env.app, owner.tenantId);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const saved = await subscriber.agent.request('PUT', `/api/tenants/${owner.tenantId}/notification-preferences`, {
        email: { enabled: true, alertNotifications: true, weeklyDigest: false, systemUpdates: false },
        sms: { enabled: false, alertTypes: [] },
        push: { enabled: false },
        phoneNumber: null,
        alertSubscriptions: [{ type: 'priority', value: 'high' }],
      });
      expect(saved.statusCode).toBe(200);
      const email = await emailOf(subscriber.userId);
      await trigger(integration.key, { priority: 'high' });
      await trigger(integration.key, { priority: 'low' });
      await advance(0);
      await advance(60 * MINUTE);
      expect(mailsTo(email)).toHaveLength(1);
      expect(mailsTo(email)[0].text).toContain('You subscribed to alerts like this one.');
    });
  });
}
