import { describe, expect, it } from 'vitest';
import type { AlertSubscription } from '../../../contract/profile.ts';
import { testDatabases } from '../../test/test-app.ts';
import { createIntegration } from '../../test/alerts.ts';
import { pagingHarness, MINUTE, savePreferences } from '../../test/paging.ts';
import { JobWorker, singly } from '../../jobs/job-worker.ts';
import { enqueueJobs, listAlertJobs } from '../../jobs/jobs.repository.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import { DeliveryError } from '../../notifications/channel.ts';
import { PAGES_JOB } from './page-delivery.ts';
import { addMember, registerOwner } from '../../test/factories.ts';

for (const db of testDatabases()) {
  describe(`page delivery [${db.name}]`, () => {
    // Bursts to one person here test delivery itself: no storm summaries (page-storms.test.ts has those).
    const h = pagingHarness(db, { pageStormLimit: 0 });
    const { setup, trigger, detail, mailsTo, emailOf, advance, clock } = h;

    it('pages each person once per step when two workers race, and a worker started later catches up on what came due', async () => {
      const { owner, second, third, integration } = await setup();
      const [ownerEmail, secondEmail, thirdEmail] = await Promise.all([emailOf(owner.userId), emailOf(second.userId), emailOf(third.userId)]);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await trigger(integration.key));
      // Nothing ran while "the servers were down"; now three fresh workers start at once: two running batches (on
      // PostgreSQL two lanes each), one running the same handlers job by job.
      const { engine } = h.env.app.paging;
      const make = (batched: boolean) =>
        new JobWorker({
          db: h.env.deps.db,
          dialect: h.env.deps.dialect,
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
      h.nowMs += 5 * MINUTE;
      await race();
      expect(pagesTo(secondEmail)).toEqual({ count: 20, distinct: 20 });
      h.nowMs += 30 * MINUTE;
      await race();
      // Level 3 once: the overdue check fell due with it, so its pages stand for the repeat (issue 27: nobody is paged
      // twice at once); every alert is marked overdue all the same.
      expect(pagesTo(thirdEmail)).toEqual({ count: 20, distinct: 20 });
      expect(pagesTo(ownerEmail).count).toBe(20);
      const overdue = await h.env.deps.db.selectFrom('alerts').select(['overdue_at', 'overdue_check_at']).where('id', 'in', ids).execute();
      expect(overdue.every((a) => a.overdue_at !== null && a.overdue_check_at === null)).toBe(true);
    });

    it('retries a failing delivery of a batch alone: the other pages of the batch are sent and recorded once', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const ids = [await trigger(integration.key), await trigger(integration.key), await trigger(integration.key)];
      const mine = () => mailsTo(ownerEmail).filter((m) => ids.some((id) => m.text.includes(id)));
      // The three pages are one batch; the first that reaches the provider fails transiently.
      h.fake.failures.email.push(new DeliveryError('email: connection refused', false));
      await advance(0);
      expect(mine()).toHaveLength(2);
      const attempts = async () => (await Promise.all(ids.map((id) => listAttempts(h.env.deps.db, owner.tenantId, id)))).flat().map((a) => [a.alert_id, a.outcome, a.tries]);
      const failed = (await attempts()).find(([, outcome]) => outcome === 'pending')!;
      expect((await attempts()).filter(([, outcome]) => outcome === 'sent')).toHaveLength(2);
      expect(failed[2]).toBe(1);
      const failedId = failed[0] as string;
      // The sweep's pages were one 'escalation.pages' job: it waits for its retry (the finished pages are skipped then).
      const batches = await h.env.deps.db.selectFrom('jobs').select(['payload', 'attempts']).where('kind', '=', 'escalation.pages').execute();
      expect(batches).toHaveLength(1);
      expect((JSON.parse(batches[0].payload) as { groups: Array<{ alertIds: string[] }> }).groups.flatMap((g) => g.alertIds).sort()).toEqual([...ids].sort());
      for (const id of ids) expect((await listAlertJobs(h.env.deps.db, owner.tenantId, id)).filter((j) => j.kind === 'page.deliver')).toEqual([]);
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
      const send = h.fake.transports.email;
      h.fake.transports.email = async (mail) => {
        if (mail.text.includes(doomed)) await h.env.deps.db.deleteFrom('alerts').where('id', '=', doomed).execute();
        return send(mail);
      };
      try {
        await advance(0);
      } finally {
        h.fake.transports.email = send;
      }
      expect(mailsTo(ownerEmail).filter((m) => [kept1, doomed, kept2].some((id) => m.text.includes(id)))).toHaveLength(3);
      for (const id of [kept1, kept2]) {
        expect((await listAttempts(h.env.deps.db, owner.tenantId, id)).map((a) => a.outcome)).toEqual(['sent']);
        const d = await detail(owner.agent, owner.tenantId, id);
        expect(d.timeline.filter((e: { kind: string }) => e.kind === 'paged').map((e: { detail: { outcome: string } }) => e.detail.outcome)).toEqual(['sent']);
      }
      expect(await h.env.deps.db.selectFrom('jobs').select('id').where('alert_id', 'in', [kept1, doomed, kept2]).where('kind', '=', 'page.deliver').execute()).toEqual([]);
    });

    it('starts alerts of different integrations and clients in one sweep: each pages its own policy’s people, subscribers hear of what matches', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Batch Owner' });
      const [viaIntegration, viaClient, tagFan, clientFan] = await Promise.all([0, 1, 2, 3].map(() => addMember(h.env.deps, h.env.app, owner.tenantId)));
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
      const subscribe = async (who: typeof tagFan, subscription: AlertSubscription) => {
        await savePreferences(who.agent, owner.tenantId, { email: true, alertSubscriptions: [subscription] });
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


    it('after a run stopped mid-send: an email found sending goes out once more, an SMS does not, and nothing a third time', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      await savePreferences(owner.agent, owner.tenantId, { email: true, sms: ['critical'], phoneNumber: '+15550009999' });
      await h.env.deps.db.updateTable('escalation_policies').set({ level_1: JSON.stringify({ userIds: [owner.userId], scheduleIds: [], notificationChannels: ['email', 'sms'] }) }).where('tenant_id', '=', owner.tenantId).execute();
      const alertId = await trigger(integration.key);
      await advance(0);
      const sms = () => h.fake.sent.sms.filter((m) => m.to === '+15550009999' && m.body.includes('Disk full'));
      expect(mailsTo(ownerEmail).filter((m) => m.text.includes(alertId))).toHaveLength(1);
      expect(sms()).toHaveLength(1);
      // As a run that stopped mid-send leaves them: both pages 'sending', their job still there (its lease ran out).
      const stopped = async (reason: string | null) => {
        await h.env.deps.db.updateTable('notification_attempts').set({ outcome: 'sending', reason }).where('alert_id', '=', alertId).where('channel', '=', 'email').execute();
        await enqueueJobs(
          h.env.deps.db,
          [{ kind: PAGES_JOB, uniqueKey: `pages:retry:${reason}`, dueAt: clock(), payload: { groups: ['email', 'sms'].map((channel) => ({ tenantId: owner.tenantId, step: 'L1', level: 1, userId: owner.userId, channel, alertIds: [alertId] })) } }],
          clock(),
        );
      };
      await h.env.deps.db.updateTable('notification_attempts').set({ outcome: 'sending' }).where('alert_id', '=', alertId).where('channel', '=', 'sms').execute();
      await stopped(null);
      await advance(0);
      expect(mailsTo(ownerEmail).filter((m) => m.text.includes(alertId))).toHaveLength(2);
      expect(sms()).toHaveLength(1);
      const outcomes = async () => Object.fromEntries((await listAttempts(h.env.deps.db, owner.tenantId, alertId)).map((a) => [a.channel, [a.outcome, a.reason, a.tries]]));
      expect(await outcomes()).toEqual({
        email: ['sent', null, 2],
        sms: ['failed', 'The server stopped while sending this SMS: it may have arrived, and is not sent again', 1],
      });
      // Stopped again while sending it again: not a third time.
      await stopped('Sent again: the server stopped while sending it');
      await advance(0);
      expect(mailsTo(ownerEmail).filter((m) => m.text.includes(alertId))).toHaveLength(2);
      expect((await outcomes()).email).toEqual(['failed', 'The server stopped twice while sending this page: it is not sent a third time', 2]);
      expect(await h.env.deps.db.selectFrom('jobs').select('id').where('kind', '=', PAGES_JOB).where('unique_key', 'like', 'pages:retry:%').execute()).toEqual([]);
    });
  });
}
