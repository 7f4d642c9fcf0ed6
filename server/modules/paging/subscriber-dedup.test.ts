import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, savePreferences } from '../../test/paging.ts';
import { createSchedule, everyDay, scheduleBody } from '../../test/schedules.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';

// Issue 27: "A person is paged at most once per step for one alert however many targets name them": someone who
// subscribes to alerts and is also a level-1 target (by name or on call) gets level 1's page alone, on any channel.
for (const db of testDatabases()) {
  describe(`a subscriber who is also a level-1 target [${db.name}]`, () => {
    const h = pagingHarness(db);

    it('gets one page at the start (level 1’s, on its channel), while a subscriber level 1 does not name keeps the subscription page', async () => {
      const { owner, second, third, integration, policyId } = await h.setup();
      const today = new Date(h.nowMs).toISOString().slice(0, 10);
      const rota = await createSchedule(
        owner.agent,
        owner.tenantId,
        scheduleBody(second.userId, { timeZone: 'UTC', startTime: today, endTime: null, rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: second.userId, secondaryOnCall: null }) }),
      );
      // Level 1 texts the owner by name and whoever is on call (the second member); the subscription would mail them.
      const res = await owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`, {
        name: 'Texts first',
        isDefault: true,
        escalationTimes: { critical: 60, high: 60, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], scheduleIds: [rota.id], notificationChannels: ['sms'] },
        level_2: { userIds: [], timeAfterPrevious: 30, notificationChannels: ['email'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const people = [
        { who: owner, phone: '+15550001111' },
        { who: second, phone: '+15550002222' },
        { who: third, phone: '+15550003333' },
      ];
      for (const p of people) {
        await savePreferences(p.who.agent, owner.tenantId, { email: true, sms: ['critical'], phoneNumber: p.phone, alertSubscriptions: [{ type: 'priority', value: 'critical' }] });
      }

      const alertId = await h.trigger(integration.key);
      await h.advance(0);
      const attempts = await listAttempts(h.env.deps.db, owner.tenantId, alertId);
      const of = (userId: string) =>
        attempts
          .filter((a) => a.user_id === userId)
          .map((a) => `${a.step}/${a.channel}`)
          .sort();
      const texts = (phone: string) => h.fake.sent.sms.filter((m) => m.to === phone);

      // The owner (named) and the second member (on call): level 1's text, no subscription mail or text.
      for (const { who, phone } of people.slice(0, 2)) {
        expect(of(who.userId)).toEqual(['L1/sms']);
        expect(texts(phone)).toHaveLength(1);
        expect(h.mailsTo(await h.emailOf(who.userId))).toHaveLength(0);
      }
      // The third member is no level-1 target: the subscription reaches them as before (mail and text).
      expect(of(third.userId).filter((s) => s.startsWith('subscription/'))).toEqual(expect.arrayContaining(['subscription/email', 'subscription/sms']));
      expect(of(third.userId).some((s) => s.startsWith('L1/'))).toBe(false);
      expect(texts('+15550003333')).toHaveLength(1);
      expect(h.mailsTo(await h.emailOf(third.userId))).toHaveLength(1);

      // Level 1 named nobody the next time (the owner left the level, nobody on call): the owner's subscription stands.
      const put = await owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`, {
        name: 'Someone else first',
        isDefault: true,
        level_1: { userIds: [third.userId], notificationChannels: ['sms'] },
      });
      expect(put.statusCode, put.body).toBe(200);
      const next = await h.trigger(integration.key);
      await h.advance(0);
      const steps = (await listAttempts(h.env.deps.db, owner.tenantId, next)).filter((a) => a.user_id === owner.userId).map((a) => a.step);
      expect(new Set(steps)).toEqual(new Set(['subscription']));
      const thirdSteps = (await listAttempts(h.env.deps.db, owner.tenantId, next)).filter((a) => a.user_id === third.userId).map((a) => `${a.step}/${a.channel}`);
      expect(thirdSteps).toEqual(['L1/sms']);
    });
  });
}
