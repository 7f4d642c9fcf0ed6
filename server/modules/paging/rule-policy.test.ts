import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, savePreferences } from '../../test/paging.ts';
import { addMember } from '../../test/factories.ts';
import { RULE_POLICY_GONE } from './escalation-start.ts';

// Issue 28: a routing rule's escalationPolicyId governs the alert's escalation, whether decided as the alert is stored
// or by the start sweep (a tenant with subscriptions); a policy deleted since falls back to the usual order, saying so.
for (const db of testDatabases()) {
  describe(`a routing rule's escalation policy [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { trigger, detail, mailsTo, emailOf, advance } = h;

    /** The default policy pages the owner; policy B pages `second`; Globex's alerts are routed by a rule to B. */
    async function setup() {
      const world = await h.setup();
      const { owner, second } = world;
      const base = `/api/tenants/${owner.tenantId}`;
      const b = await owner.agent.post(`${base}/escalationPolicies`, {
        name: 'Globex policy',
        isDefault: false,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [second.userId], notificationChannels: ['email'] },
        level_2: { userIds: [], timeAfterPrevious: 5, notificationChannels: ['email'] },
        level_3: { userIds: [], timeAfterPrevious: 5, notificationChannels: ['email'] },
      });
      expect(b.statusCode, b.body).toBe(201);
      const globex = (await owner.agent.post(`${base}/clients`, { name: 'Globex', status: 'active' })).data.id as string;
      const rules = await owner.agent.put(`${base}/integrations/${world.integration.id}/rules`, {
        rules: [{ when: [{ field: 'client', op: 'equals', value: 'Globex' }], then: { clientId: globex, escalationPolicyId: b.data.id } }],
      });
      expect(rules.statusCode, rules.body).toBe(200);
      return { ...world, policyB: b.data.id as string, globex, base };
    }

    const row = (id: string) => h.env.deps.db.selectFrom('alerts').select(['client_id', 'escalation_state', 'escalation_policy_id']).where('id', '=', id).executeTakeFirstOrThrow();
    const paged = async (userId: string) => mailsTo(await emailOf(userId)).length;

    it("decided at insert: Globex's alert runs under policy B and pages B's level 1, not the default's", async () => {
      const { owner, second, integration, policyB, policyId, globex } = await setup();
      const alertId = await trigger(integration.key, { client: 'Globex' });
      expect(await row(alertId)).toEqual({ client_id: globex, escalation_state: 'running', escalation_policy_id: policyB });
      // An alert the rule does not match keeps the default.
      const other = await trigger(integration.key, { client: 'Initech' });
      expect(await row(other)).toMatchObject({ escalation_policy_id: policyId });
      await advance(0);
      expect(await paged(second.userId)).toBe(1);
      expect(await paged(owner.userId)).toBe(1);
      expect(mailsTo(await emailOf(second.userId))[0].subject).toContain('Disk full');
      const timeline = (await detail(owner.agent, owner.tenantId, alertId)).timeline as Array<{ kind: string; detail: Record<string, unknown> }>;
      expect(timeline.find((e) => e.kind === 'escalated')?.detail).toMatchObject({ level: 1, policyName: 'Globex policy' });
    });

    it('an Alertmanager group stored together: each alert gets the policy its own rule names', async () => {
      const { integration, policyB, policyId } = await setup();
      const group = { version: '4', status: 'firing', alerts: ['Globex', 'Initech'].map((client) => ({ status: 'firing', fingerprint: `fp-${client}`, labels: { alertname: 'DiskFull', client, severity: 'critical' } })) };
      const res = await h.env.app.inject({ method: 'POST', url: '/api/ingest/alertmanager', headers: { authorization: `Bearer ${integration.key}` }, payload: group });
      expect(res.statusCode, res.body).toBe(202);
      const ids = (res.json().alerts as Array<{ alertId: string }>).map((a) => a.alertId);
      expect((await Promise.all(ids.map(row))).map((r) => r.escalation_policy_id)).toEqual([policyB, policyId]);
    });

    it("decided by the start sweep (someone subscribes): the pending alert carries B and the sweep pages B's level 1", async () => {
      const { owner, second, integration, policyB } = await setup();
      const subscriber = await addMember(h.env.deps, h.env.app, owner.tenantId);
      await savePreferences(subscriber.agent, owner.tenantId, { email: true, alertSubscriptions: [{ type: 'priority', value: 'low' }] });
      const alertId = await trigger(integration.key, { client: 'Globex' });
      expect(await row(alertId)).toMatchObject({ escalation_state: 'pending', escalation_policy_id: policyB });
      await advance(0);
      expect(await row(alertId)).toMatchObject({ escalation_state: 'running', escalation_policy_id: policyB });
      expect(await paged(second.userId)).toBe(1);
      expect(await paged(owner.userId)).toBe(0);
    });

    it('a policy deleted since the rule named it: the default governs, and the timeline says why', async () => {
      const { owner, second, integration, policyB, policyId, base } = await setup();
      expect((await owner.agent.delete(`${base}/escalationPolicies/${policyB}`)).statusCode).toBeLessThan(300);
      const alertId = await trigger(integration.key, { client: 'Globex' });
      await advance(0);
      expect(await row(alertId)).toMatchObject({ escalation_state: 'running', escalation_policy_id: policyId });
      expect(await paged(owner.userId)).toBe(1);
      expect(await paged(second.userId)).toBe(0);
      const timeline = (await detail(owner.agent, owner.tenantId, alertId)).timeline as Array<{ kind: string; detail: Record<string, unknown> }>;
      expect(timeline.filter((e) => e.kind === 'unrouted').map((e) => e.detail.reason)).toEqual([RULE_POLICY_GONE]);
      expect(timeline.find((e) => e.kind === 'escalated')?.detail).toMatchObject({ policyName: 'Night policy' });
    });

    it("a rule naming a policy that is not the tenant's answers 400 naming the rule's field", async () => {
      const { owner, integration } = await setup();
      // Another tenant's policy answers like a missing one.
      const theirs = (await h.setup()).policyId;
      for (const escalationPolicyId of [theirs, 'no-such-policy']) {
        const res = await owner.agent.put(`/api/tenants/${owner.tenantId}/integrations/${integration.id}/rules`, { rules: [{ when: [], then: { escalationPolicyId } }] });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.data.error.fields)).toEqual(['rules.0.then.escalationPolicyId']);
      }
    });
  });
}
