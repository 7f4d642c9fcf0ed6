import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, MINUTE } from '../../test/paging.ts';
import { listAlertJobs } from '../../jobs/jobs.repository.ts';

// Issue 32: a new alert may be resolved without being acknowledged first (a false alarm, or one fixed already), as
// PagerDuty and Opsgenie allow. It ends the escalation exactly as acknowledging does.
for (const db of testDatabases()) {
  describe(`resolving a new alert [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;
    const escalation = (alertId: string) =>
      h.env.deps.db.selectFrom('alerts').select(['escalation_state', 'escalation_level', 'next_step_at', 'overdue_check_at']).where('id', '=', alertId).executeTakeFirstOrThrow();

    it('resolves it, records who did in the timeline, and pages nobody more: no next level, no overdue repeat', async () => {
      const { owner, second, third, integration } = await setup();
      const alertId = await trigger(integration.key);
      await advance(0);
      const [ownerEmail, secondEmail, thirdEmail] = await Promise.all([emailOf(owner.userId), emailOf(second.userId), emailOf(third.userId)]);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      expect(await escalation(alertId)).toMatchObject({ escalation_state: 'running', escalation_level: 1, next_step_at: expect.any(String), overdue_check_at: expect.any(String) });
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.actions).toEqual(['acknowledge', 'resolve', 'assign', 'addNote']);

      // A colleague who is not paged resolves it from the dashboard, still new.
      const res = await second.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/resolve`);
      expect(res.statusCode).toBe(200);
      const secondName = (await second.agent.get('/api/me')).data.user.displayName;
      expect(res.data.alert).toMatchObject({ status: 'resolved', resolvedBy: second.userId, resolvedAt: expect.any(String), acknowledgedBy: null, acknowledgedAt: null, actions: ['close', 'addNote'] });
      expect(res.data.resolvedByName).toBe(secondName);
      expect(res.data.acknowledgedByName).toBeNull();
      // Its next level and overdue check are gone in the same transaction, like an acknowledgement's.
      expect(await escalation(alertId)).toMatchObject({ next_step_at: null, overdue_check_at: null });
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, alertId)).toEqual([]);

      // An hour on: level 2 (5 min), level 3 (10 min) and the overdue repeat (15 min) never come.
      await advance(60 * MINUTE);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      expect(mailsTo(secondEmail)).toHaveLength(0);
      expect(mailsTo(thirdEmail)).toHaveLength(0);
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.overdueAt).toBeNull();
      // (The harness's clock, which stamps the engine's entries, started a moment before the alert's real creation.)
      expect(d.timeline.map((e: { kind: string }) => e.kind).sort()).toEqual(['escalated', 'paged', 'resolved', 'triggered']);
      expect(d.timeline.at(-1)).toMatchObject({ kind: 'resolved', actorType: 'user', actorId: second.userId, actorName: secondName });
      // Once resolved it cannot be acknowledged any more.
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/acknowledge`)).statusCode).toBe(409);
    });

    it('pages nobody at all when resolved before its escalation started', async () => {
      const { owner, integration } = await setup();
      const before = h.fake.sent.email.length;
      const alertId = await trigger(integration.key);
      // Its level 1 is due, not fired yet (the start is decided as the alert is stored, issue 26).
      expect(await escalation(alertId)).toMatchObject({ escalation_state: 'running', escalation_level: 0 });
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/resolve`);
      expect(res.statusCode).toBe(200);
      await advance(0);
      await advance(60 * MINUTE);
      expect(h.fake.sent.email.length).toBe(before);
      expect(await escalation(alertId)).toMatchObject({ escalation_level: 0, next_step_at: null, overdue_check_at: null });
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.timeline.map((e: { kind: string }) => e.kind)).toEqual(['triggered', 'resolved']);
    });

    it('resolves a new alert from the bulk action too, stopping its escalation', async () => {
      const { owner, second, integration } = await setup();
      const alertId = await trigger(integration.key);
      await advance(0);
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/bulk`, { action: 'resolve', alertIds: [alertId] });
      expect(res.data).toMatchObject({ succeeded: 1, failed: 0, results: [{ id: alertId, ok: true, alert: { status: 'resolved' } }] });
      await advance(60 * MINUTE);
      expect(mailsTo(await emailOf(second.userId))).toHaveLength(0);
      expect(await escalation(alertId)).toMatchObject({ next_step_at: null, overdue_check_at: null });
    });
  });
}
