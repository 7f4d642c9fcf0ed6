import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, MINUTE, savePreferences } from '../../test/paging.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { buildApp } from '../../app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';

// Issue 26: an alert's escalation is decided as it is stored (one write), from routing cached per tenant and forgotten
// on every instance when it changes.
for (const db of testDatabases()) {
  describe(`escalation decided at insert [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;
    const escalation = (id: string) =>
      h.env.deps.db
        .selectFrom('alerts')
        .select(['created_at', 'escalation_state', 'escalation_policy_id', 'escalation_level', 'next_step_at', 'overdue_check_at', 'paged_nobody_reason'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('stores a new alert running under its policy with level 1 due at once, and the step sweep pages level 1', async () => {
      const { owner, integration, policyId } = await setup();
      const alertId = await trigger(integration.key);
      // No worker pass yet: the row already says it all.
      const row = await escalation(alertId);
      expect(row).toEqual({
        created_at: row.created_at,
        escalation_state: 'running',
        escalation_policy_id: policyId,
        escalation_level: 0,
        next_step_at: row.created_at,
        overdue_check_at: new Date(Date.parse(row.created_at) + 15 * MINUTE).toISOString(),
        paged_nobody_reason: null,
      });
      await advance(0);
      expect(mailsTo(await emailOf(owner.userId))).toHaveLength(1);
      expect(await escalation(alertId)).toMatchObject({ escalation_level: 1, next_step_at: new Date(h.nowMs + 5 * MINUTE).toISOString() });
      const timeline = (await detail(owner.agent, owner.tenantId, alertId)).timeline;
      expect(timeline.filter((e: { kind: string }) => e.kind === 'escalated')).toEqual([expect.objectContaining({ detail: expect.objectContaining({ level: 1, policyName: 'Night policy' }) })]);
      // A repeat of the open alert changes nothing of its escalation.
      const repeated = await trigger(integration.key, { dedupKey: 'same' });
      await advance(0);
      const first = await escalation(repeated);
      expect(await trigger(integration.key, { dedupKey: 'same' })).toBe(repeated);
      expect(await escalation(repeated)).toEqual(first);
    });

    it('an alert acknowledged before its level 1 fired pages nobody', async () => {
      const { owner, integration } = await setup();
      const alertId = await trigger(integration.key);
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/acknowledge`)).statusCode).toBe(200);
      await advance(30 * MINUTE);
      expect(mailsTo(await emailOf(owner.userId))).toHaveLength(0);
      expect(await escalation(alertId)).toMatchObject({ next_step_at: null, overdue_check_at: null });
    });

    it('routes anew at once when a policy, an integration’s policy or someone’s subscriptions change', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Routing Owner' });
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const unrouted = await trigger(integration.key);
      expect(await escalation(unrouted)).toMatchObject({ escalation_state: 'none', escalation_policy_id: null, paged_nobody_reason: 'no_policy' });
      // A default policy: the very next alert runs under it (this instance's cache was forgotten by the write).
      const policy = {
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], notificationChannels: ['email'] },
        level_2: { userIds: [], timeAfterPrevious: 5, notificationChannels: ['email'] },
        level_3: { userIds: [], timeAfterPrevious: 5, notificationChannels: ['email'] },
      };
      const general = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, { name: 'General', isDefault: true, ...policy });
      expect(general.statusCode).toBe(201);
      expect(await escalation(await trigger(integration.key))).toMatchObject({ escalation_state: 'running', escalation_policy_id: general.data.id });
      // The integration's own policy wins over the default from its next alert.
      const own = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, { name: 'Integration', isDefault: false, ...policy, escalationTimes: { ...policy.escalationTimes, critical: 5 } });
      expect((await owner.agent.request('PATCH', `/api/tenants/${owner.tenantId}/integrations/${integration.id}`, { escalationPolicyId: own.data.id })).statusCode).toBe(200);
      const viaIntegration = await escalation(await trigger(integration.key));
      expect(viaIntegration).toMatchObject({ escalation_policy_id: own.data.id, overdue_check_at: new Date(Date.parse(viaIntegration.created_at) + 5 * MINUTE).toISOString() });
      // A colleague not on level 1 subscribes to critical alerts: the tenant's alerts take the start sweep, which pages
      // the subscriber too (one level 1 names is paged once, by level 1: subscriber-dedup.test.ts).
      const colleague = await addMember(h.env.deps, h.env.app, owner.tenantId);
      await savePreferences(colleague.agent, owner.tenantId, { email: true, alertSubscriptions: [{ type: 'priority', value: 'critical' }] });
      const subscribed = await trigger(integration.key);
      expect(await escalation(subscribed)).toMatchObject({ escalation_state: 'pending' });
      await advance(0);
      expect(await escalation(subscribed)).toMatchObject({ escalation_state: 'running', escalation_level: 1 });
      const steps = (await detail(owner.agent, owner.tenantId, subscribed)).timeline.filter((e: { kind: string; detail: { step?: string } }) => e.kind === 'paged').map((e: { detail: { step: string } }) => e.detail.step);
      expect(steps.sort()).toEqual(['L1', 'subscription']);
    });

    it.runIf(db.name === 'postgres')('forgets routing on every instance: a policy made through one routes the other’s next alert', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Two Instances' });
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const other = await buildApp({ ...h.env.config, jobWorker: false }, { logger: false, transports: fakeTransports().transports });
      await other.app.ready();
      try {
        await new Promise((r) => setTimeout(r, 300)); // its LISTEN connection settles
        const first = await ingest(other.app, '/api/ingest/events', { title: 'Cached as unrouted', priority: 'critical' }, { authorization: `Bearer ${integration.key}` });
        expect(await escalation(first.data.alertId)).toMatchObject({ escalation_state: 'none' });
        const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies/default`);
        expect(res.statusCode).toBe(201);
        await expect
          .poll(async () => {
            const r = await ingest(other.app, '/api/ingest/events', { title: 'Routed', priority: 'critical' }, { authorization: `Bearer ${integration.key}` });
            return (await escalation(r.data.alertId)).escalation_policy_id;
          }, { timeout: 2_000, interval: 100 })
          .toBe(res.data.id);
      } finally {
        await other.app.close();
      }
    });
  });
}
