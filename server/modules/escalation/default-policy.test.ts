import { describe, expect, it } from 'vitest';
import { ESCALATION_MSG } from '../../../contract/escalation.ts';
import { Agent, testDatabases } from '../../test/test-app.ts';
import { pagingHarness } from '../../test/paging.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';

const url = (tenantId: string) => `/api/tenants/${tenantId}/escalationPolicies/default`;

// Issue 25: the getting-started panel's fourth step makes the tenant's default escalation policy in one click, and
// reads whether there is one.
for (const db of testDatabases()) {
  describe(`one-click default escalation policy [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { trigger, detail, mailsTo, advance } = h;

    it('makes a working default policy paging the owner, once; reads it; answers 409 on a second click', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Olga Owner' });
      const admin = await addMember(h.env.deps, h.env.app, owner.tenantId, 'admin');
      const member = await addMember(h.env.deps, h.env.app, owner.tenantId, 'user');
      const integration = await createIntegration(owner.agent, owner.tenantId);
      expect((await member.agent.get(url(owner.tenantId))).data).toEqual({ policy: null });

      // An admin clicks: the owner (not the admin) is on level 1, by email and push, with the spec's default times.
      const made = await admin.agent.post(url(owner.tenantId));
      expect(made.statusCode).toBe(201);
      expect(made.data).toMatchObject({
        tenantId: owner.tenantId,
        name: ESCALATION_MSG.oneClickName,
        description: ESCALATION_MSG.oneClickDescription,
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], scheduleIds: [], notificationChannels: ['email', 'push'] },
        level_2: { userIds: [], scheduleIds: [], timeAfterPrevious: 30 },
        level_3: { userIds: [], scheduleIds: [], timeAfterPrevious: 60 },
      });
      // Every member reads it, as the list shows it.
      expect((await member.agent.get(url(owner.tenantId))).data).toEqual({ policy: made.data });
      const list = (await member.agent.get(`/api/tenants/${owner.tenantId}/escalationPolicies`)).data.items;
      expect(list).toEqual([made.data]);

      // A second click (or another tab): 409 with the reason, and still one policy.
      for (const agent of [admin.agent, owner.agent]) {
        const again = await agent.post(url(owner.tenantId));
        expect(again.statusCode).toBe(409);
        expect(again.data.error).toMatchObject({ code: 'conflict', message: ESCALATION_MSG.defaultExists });
      }
      expect((await member.agent.get(`/api/tenants/${owner.tenantId}/escalationPolicies`)).data.items).toHaveLength(1);

      // It works: the next alert pages the owner, and nobody else; it is not marked as having paged nobody.
      const alertId = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(owner.email)).toHaveLength(1);
      expect(mailsTo(admin.email)).toHaveLength(0);
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.pagedNobody).toBeNull();
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'escalated').detail).toMatchObject({ level: 1, policyName: ESCALATION_MSG.oneClickName, names: ['Olga Owner'] });
    });

    it('refuses a member without the ability (403), another tenant (404) and no session (401)', async () => {
      const owner = await registerOwner(h.env.app);
      const member = await addMember(h.env.deps, h.env.app, owner.tenantId, 'user');
      const stranger = await registerOwner(h.env.app, { tenantName: 'Elsewhere' });

      const refused = await member.agent.post(url(owner.tenantId));
      expect(refused.statusCode).toBe(403);
      expect(refused.data.error.message).toBe(ESCALATION_MSG.manageForbidden);
      for (const res of [await stranger.agent.post(url(owner.tenantId)), await stranger.agent.get(url(owner.tenantId))]) expect(res.statusCode).toBe(404);
      const anonymous = new Agent(h.env.app);
      for (const res of [await anonymous.post(url(owner.tenantId)), await anonymous.get(url(owner.tenantId))]) expect(res.statusCode).toBe(401);
      expect((await owner.agent.get(url(owner.tenantId))).data).toEqual({ policy: null });

      // The owner clicks for their own organization.
      const made = await owner.agent.post(url(owner.tenantId));
      expect(made.statusCode).toBe(201);
      expect(made.data.level_1.userIds).toEqual([owner.userId]);
    });

    it('answers 409 when a default policy was made in the form, and leaves it the default', async () => {
      const owner = await registerOwner(h.env.app);
      const own = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, { name: 'Hand made', isDefault: true, level_1: { userIds: [owner.userId] } });
      expect(own.statusCode).toBe(201);
      const again = await owner.agent.post(url(owner.tenantId));
      expect(again.statusCode).toBe(409);
      expect((await owner.agent.get(url(owner.tenantId))).data.policy).toMatchObject({ id: own.data.id, name: 'Hand made' });
    });

    it('two clicks at once make one policy', async () => {
      const owner = await registerOwner(h.env.app);
      const codes = (await Promise.all([owner.agent.post(url(owner.tenantId)), owner.agent.post(url(owner.tenantId)), owner.agent.post(url(owner.tenantId))])).map((r) => r.statusCode);
      expect(codes.sort()).toEqual([201, 409, 409]);
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/escalationPolicies`)).data.items).toHaveLength(1);
    });

    it('puts the caller on level 1 when the owner is no longer an active member', async () => {
      const owner = await registerOwner(h.env.app);
      const admin = await addMember(h.env.deps, h.env.app, owner.tenantId, 'admin');
      // Data of an older version: the owner's membership row is gone (the owner keeps the tenant through owner_id).
      await h.env.deps.db.deleteFrom('tenant_members').where('tenant_id', '=', owner.tenantId).where('user_id', '=', owner.userId).execute();
      const made = await admin.agent.post(url(owner.tenantId));
      expect(made.statusCode).toBe(201);
      expect(made.data.level_1.userIds).toEqual([admin.userId]);
    });
  });
}
