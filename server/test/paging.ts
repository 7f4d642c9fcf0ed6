import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startTestApp, type Agent, type TestDatabase } from './test-app.ts';
import { addMember, registerOwner } from './factories.ts';
import { createIntegration, ingest } from './alerts.ts';
import { fakeTransports } from './fake-transports.ts';
import type { AlertSubscription, Priority } from '../../contract/profile.ts';
import type { Config } from '../config.ts';

export const MINUTE = 60_000;

type Preferences = { email: boolean; alertNotifications?: boolean; sms?: Priority[]; push?: boolean; phoneNumber?: string | null; alertSubscriptions?: AlertSubscription[] };

/**
 * Saves a person's notification preferences in a tenant (email on or off, with alert notifications unless said; SMS
 * for the priorities given; push; phone; subscriptions), expecting the save to succeed.
 */
export async function savePreferences(agent: Agent, tenantId: string, p: Preferences) {
  const res = await agent.request('PUT', `/api/tenants/${tenantId}/notification-preferences`, {
    email: { enabled: p.email, alertNotifications: p.alertNotifications ?? true, weeklyDigest: false, systemUpdates: false },
    sms: { enabled: (p.sms?.length ?? 0) > 0, alertTypes: p.sms ?? [] },
    push: { enabled: p.push ?? false },
    phoneNumber: p.phoneNumber ?? null,
    alertSubscriptions: p.alertSubscriptions ?? [],
  });
  expect(res.statusCode).toBe(200);
}

/**
 * The paging tests' world, set up inside a `describe`: a fresh app over `db` whose job worker runs on a clock the test
 * moves (`advance`, or `h.nowMs`), with local stand-ins of the providers (`h.fake`), and helpers to build a tenant with
 * a default policy and to trigger alerts.
 */
export function pagingHarness(db: TestDatabase, config: Partial<Config> = {}) {
  const h = {
    env: null as unknown as Awaited<ReturnType<typeof startTestApp>>,
    fake: null as unknown as ReturnType<typeof fakeTransports>,
    nowMs: Date.now(),
    clock: () => new Date(h.nowMs),
    advance: async (ms: number) => {
      h.nowMs += ms;
      await h.env.app.jobs.worker.runDue();
    },
    /** A tenant with an owner and two members, an integration key, and a default policy paging owner then member. */
    async setup(policy: Record<string, unknown> = {}) {
      const owner = await registerOwner(h.env.app, { name: 'Olive Owner' });
      const second = await addMember(h.env.deps, h.env.app, owner.tenantId);
      const third = await addMember(h.env.deps, h.env.app, owner.tenantId);
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
    },
    async trigger(key: string, over: Record<string, unknown> = {}) {
      const res = await ingest(h.env.app, '/api/ingest/events', { title: `Disk full ${Math.random()}`, priority: 'critical', ...over }, { authorization: `Bearer ${key}` });
      expect(res.statusCode).toBe(202);
      // Level 1 is due when the alert was stored (real time): the test's clock is never behind that.
      h.nowMs = Math.max(h.nowMs, Date.now());
      return res.data.alertId as string;
    },
    detail: async (agent: Agent, tenantId: string, alertId: string) => (await agent.get(`/api/tenants/${tenantId}/alerts/${alertId}`)).data,
    mailsTo: (email: string) => h.fake.sent.email.filter((m) => m.to === email),
    emailOf: async (userId: string) => (await h.env.deps.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email,
  };
  beforeAll(async () => {
    h.fake = fakeTransports();
    h.env = await startTestApp(db, config, undefined, { clock: h.clock, transports: h.fake.transports });
  });
  afterAll(async () => h.env?.close());
  // Alerts are stamped with the real time: every test starts its clock there and moves it forward.
  beforeEach(() => {
    h.nowMs = Date.now();
  });
  return h;
}
