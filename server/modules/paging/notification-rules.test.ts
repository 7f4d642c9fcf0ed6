import { describe, expect, it } from 'vitest';
import { RULES_MSG, TEST_PAGE_MSG } from '../../../contract/profile.ts';
import { listAlertJobs } from '../../jobs/jobs.repository.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import { pagingHarness, MINUTE, savePreferences } from '../../test/paging.ts';
import { Agent, testDatabases } from '../../test/test-app.ts';
import { applyRules } from './notification-rules.ts';
import type { Page } from './page-delivery.ts';

const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };
const ALL = { notificationChannels: ['email', 'push', 'sms'] };

describe('applyRules: the level says which channels, the person’s rules say when', () => {
  const page = (userId: string, channel: Page['channel']): Page => ({ tenantId: 't', alertId: 'a', userId, channel, step: 'L1', level: 1 });
  const level = (userId: string, channels: Page['channel'][]) => channels.map((c) => page(userId, c));
  const cases: Array<[string, Page[], Record<string, Array<{ channel: Page['channel']; delayMinutes: number }>>, Array<[string, string, number | undefined]>]> = [
    ['no rules: every channel of the level at once', level('u', ['email', 'sms']), {}, [['u', 'email', undefined], ['u', 'sms', undefined]]],
    [
      'rules in their order, each at its delay; channels the rules leave out are not paged',
      level('u', ['email', 'push', 'sms']),
      { u: [{ channel: 'push', delayMinutes: 0 }, { channel: 'sms', delayMinutes: 2 }] },
      [['u', 'push', undefined], ['u', 'sms', 2]],
    ],
    ['a rule for a channel the level does not allow is dropped', level('u', ['email', 'push']), { u: [{ channel: 'sms', delayMinutes: 0 }, { channel: 'email', delayMinutes: 3 }] }, [['u', 'email', 3]]],
    ['rules naming none of the level’s channels: the level’s channels at once', level('u', ['email']), { u: [{ channel: 'sms', delayMinutes: 0 }] }, [['u', 'email', undefined]]],
    [
      'a voice call is allowed where the level allows SMS',
      level('u', ['email', 'sms']),
      { u: [{ channel: 'email', delayMinutes: 0 }, { channel: 'voice', delayMinutes: 5 }] },
      [['u', 'email', undefined], ['u', 'voice', 5]],
    ],
    ['a voice call is not allowed by a level without SMS', level('u', ['email', 'push']), { u: [{ channel: 'voice', delayMinutes: 0 }] }, [['u', 'email', undefined], ['u', 'push', undefined]]],
    [
      'each person by their own rules',
      [...level('u', ['email', 'push']), ...level('v', ['email', 'push'])],
      { v: [{ channel: 'email', delayMinutes: 5 }] },
      [['u', 'email', undefined], ['u', 'push', undefined], ['v', 'email', 5]],
    ],
  ];
  it.each(cases)('%s', (_name, pages, rules, expected) => {
    const out = applyRules(pages, (id) => rules[id]);
    expect(out.map((p) => [p.userId, p.channel, p.delayMinutes])).toEqual(expected);
  });
});

for (const db of testDatabases()) {
  describe(`personal notification rules [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, advance } = h;

    /** An owner reachable by email, push and SMS, on a policy whose level 1 pages them on all three. */
    let phones = 0;
    async function reachableOwner() {
      const phone = `+1415555${String(1000 + ++phones)}`;
      const s = await setup();
      const res = await s.owner.agent.put(`/api/tenants/${s.owner.tenantId}/escalationPolicies/${s.policyId}`, {
        name: 'Night policy',
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [s.owner.userId], ...ALL },
        level_2: { userIds: [s.second.userId], timeAfterPrevious: 30, notificationChannels: ['email'] },
        level_3: { userIds: [s.third.userId], timeAfterPrevious: 30, notificationChannels: ['email'] },
      });
      expect(res.statusCode).toBe(200);
      await savePreferences(s.owner.agent, s.owner.tenantId, { email: true, push: true, sms: ['critical'], phoneNumber: phone });
      const endpoint = `https://push.example.com/rules/${s.owner.userId}`;
      expect((await s.owner.agent.post('/api/userTokens', { token: { endpoint, expirationTime: null, keys } })).statusCode).toBe(200);
      const email = await h.emailOf(s.owner.userId);
      const sent = () => ({
        email: h.fake.sent.email.filter((m) => m.to === email).length,
        push: h.fake.sent.push.filter((p) => p.endpoint === endpoint).length,
        sms: h.fake.sent.sms.filter((m) => m.to === phone).length,
      });
      return { ...s, sent };
    }

    it('saves, reads and validates a person’s rules', async () => {
      const { owner } = await setup();
      expect((await new Agent(h.env.app).get('/api/profile/notificationRules')).statusCode).toBe(401);
      expect((await new Agent(h.env.app).put('/api/profile/notificationRules', { rules: [] })).statusCode).toBe(401);
      expect((await owner.agent.get('/api/profile/notificationRules')).data).toEqual({ rules: [], updatedAt: null });
      const bad: Array<[unknown, string, string]> = [
        [[{ channel: 'push', delayMinutes: 0 }, { channel: 'push', delayMinutes: 5 }], 'rules.1.channel', RULES_MSG.channelTwice],
        [[{ channel: 'sms', delayMinutes: -1 }], 'rules.0.delayMinutes', RULES_MSG.delayInvalid],
        [[{ channel: 'sms', delayMinutes: 1441 }], 'rules.0.delayMinutes', RULES_MSG.delayInvalid],
        [[{ channel: 'sms', delayMinutes: 1.5 }], 'rules.0.delayMinutes', RULES_MSG.delayInvalid],
        [[{ channel: 'fax', delayMinutes: 0 }], 'rules.0.channel', TEST_PAGE_MSG.channelInvalid],
      ];
      for (const [rules, field, message] of bad) {
        const res = await owner.agent.put('/api/profile/notificationRules', { rules });
        expect(res.statusCode, message).toBe(400);
        expect(res.data.error.fields[field]).toBe(message);
      }
      const saved = await owner.agent.put('/api/profile/notificationRules', {
        rules: [
          { channel: 'sms', delayMinutes: 2 },
          { channel: 'push', delayMinutes: 0 },
        ],
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.data.rules).toEqual([
        { channel: 'push', delayMinutes: 0 },
        { channel: 'sms', delayMinutes: 2 },
      ]);
      expect(saved.data.updatedAt).toEqual(expect.any(String));
      expect((await owner.agent.get('/api/profile/notificationRules')).data.rules).toEqual(saved.data.rules);
      const cleared = await owner.agent.put('/api/profile/notificationRules', { rules: [] });
      expect(cleared.data).toEqual({ rules: [], updatedAt: null });
    });

    it('without rules pages every channel of the level at once, as before', async () => {
      const { integration, sent } = await reachableOwner();
      await trigger(integration.key);
      await advance(0);
      expect(sent()).toEqual({ email: 1, push: 1, sms: 1 });
    });

    it('pages push at once, SMS after 2 minutes and email after 5, timed by the clock, until acknowledged', async () => {
      const { owner, integration, sent } = await reachableOwner();
      await owner.agent.put('/api/profile/notificationRules', {
        rules: [
          { channel: 'push', delayMinutes: 0 },
          { channel: 'sms', delayMinutes: 2 },
          { channel: 'email', delayMinutes: 5 },
        ],
      });
      const alertId = await trigger(integration.key);
      await advance(0);
      expect(sent()).toEqual({ email: 0, push: 1, sms: 0 });
      // The delayed pages wait as jobs of the alert (durable: any worker, after any restart, runs them when due).
      const jobs = await listAlertJobs(h.env.deps.db, owner.tenantId, alertId);
      expect(jobs.map((j) => Date.parse(j.due_at) - h.nowMs).sort((a, b) => a - b)).toEqual([2 * MINUTE, 5 * MINUTE]);
      await advance(2 * MINUTE - 1000);
      expect(sent()).toEqual({ email: 0, push: 1, sms: 0 });
      await advance(1000);
      expect(sent()).toEqual({ email: 0, push: 1, sms: 1 });
      await advance(3 * MINUTE);
      expect(sent()).toEqual({ email: 1, push: 1, sms: 1 });
      const attempts = await listAttempts(h.env.deps.db, owner.tenantId, alertId);
      expect(attempts.filter((a) => a.user_id === owner.userId).map((a) => [a.step, a.channel, a.outcome])).toEqual([
        ['L1', 'push', 'sent'],
        ['L1', 'sms', 'sent'],
        ['L1', 'email', 'sent'],
      ]);
      // Each rule pages once per step: nothing more until the alert is overdue (15 minutes, critical), whose re-page
      // of level 1 follows the same rules.
      await advance(5 * MINUTE);
      expect(sent()).toEqual({ email: 1, push: 1, sms: 1 });
      await advance(5 * MINUTE);
      expect(sent()).toEqual({ email: 1, push: 2, sms: 1 });
      await advance(2 * MINUTE);
      expect(sent()).toEqual({ email: 1, push: 2, sms: 2 });
    });

    it('stops the person’s later rules once the alert is acknowledged', async () => {
      const { owner, integration, sent } = await reachableOwner();
      await owner.agent.put('/api/profile/notificationRules', {
        rules: [
          { channel: 'push', delayMinutes: 0 },
          { channel: 'sms', delayMinutes: 2 },
        ],
      });
      const alertId = await trigger(integration.key);
      await advance(0);
      await advance(MINUTE);
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/acknowledge`)).statusCode).toBe(200);
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, alertId)).toEqual([]);
      await advance(5 * MINUTE);
      expect(sent()).toEqual({ email: 0, push: 1, sms: 0 });
    });

    it('a delayed page whose job outlived the acknowledgement sends nothing', async () => {
      const { owner, integration, sent } = await reachableOwner();
      await owner.agent.put('/api/profile/notificationRules', { rules: [{ channel: 'sms', delayMinutes: 3 }] });
      const alertId = await trigger(integration.key);
      await advance(0);
      // Level 1's only page is delayed: the alert is not marked as having paged nobody.
      expect((await h.detail(owner.agent, owner.tenantId, alertId)).alert.pagedNobody ?? null).toBeNull();
      const jobs = await listAlertJobs(h.env.deps.db, owner.tenantId, alertId);
      expect(jobs).toHaveLength(1);
      // Acknowledged behind the engine's back (another path that leaves the job): the job runs and pages nobody.
      await h.env.deps.db.updateTable('alerts').set({ status: 'acknowledged' }).where('id', '=', alertId).execute();
      await advance(3 * MINUTE);
      expect(sent()).toEqual({ email: 0, push: 0, sms: 0 });
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, alertId)).toEqual([]);
    });

    it('the level says which channels: a rule for a channel the level lacks is left out, and rules fitting none keep the level’s channels', async () => {
      const { owner, integration, sent } = await reachableOwner();
      // Level 1 allows all three: only SMS by the rules, email and push are not paged.
      await owner.agent.put('/api/profile/notificationRules', { rules: [{ channel: 'sms', delayMinutes: 0 }] });
      await trigger(integration.key);
      await advance(0);
      expect(sent()).toEqual({ email: 0, push: 0, sms: 1 });
      // A policy whose level 1 is email only: SMS-only rules fit none of it, so email goes at once (nobody goes unpaged).
      const res = await owner.agent.get(`/api/tenants/${owner.tenantId}/escalationPolicies`);
      const policy = res.data.items?.[0] ?? res.data[0];
      const put = await owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policy.id}`, {
        name: 'Night policy',
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], notificationChannels: ['email'] },
        level_2: { userIds: [owner.userId], timeAfterPrevious: 30, notificationChannels: ['email'] },
        level_3: { userIds: [owner.userId], timeAfterPrevious: 30, notificationChannels: ['email'] },
      });
      expect(put.statusCode).toBe(200);
      await trigger(integration.key);
      await advance(0);
      expect(sent()).toEqual({ email: 1, push: 0, sms: 1 });
    });
  });
}
