import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, MINUTE, savePreferences } from '../../test/paging.ts';
import { createSchedule, everyDay, scheduleBody } from '../../test/schedules.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import { overdueFallsWithStep, targetPeople, type OnCall } from './page-targets.ts';

describe('targetPeople: whom a level’s targets come to (pure)', () => {
  const table: Record<string, OnCall> = { rota: { primary: 'p', secondary: 'b' }, night: { primary: 'n', secondary: null }, same: { primary: 'u', secondary: 'p' } };
  const onCall = (id: string) => table[id] ?? null;
  it.each([
    { case: 'a level of one schedule: its primary only by default', level: { userIds: [], scheduleIds: ['rota'], notify: 'primary' as const }, want: ['p'] },
    { case: 'primary and secondary when the level says so', level: { userIds: [], scheduleIds: ['rota'], notify: 'primary_and_secondary' as const }, want: ['p', 'b'] },
    { case: 'a schedule without a secondary', level: { userIds: [], scheduleIds: ['night'], notify: 'primary_and_secondary' as const }, want: ['n'] },
    { case: 'nobody on call (or a schedule gone): nobody from it', level: { userIds: ['u'], scheduleIds: ['gone'], notify: 'primary' as const }, want: ['u'] },
    { case: 'a user named directly and on call: once', level: { userIds: ['p'], scheduleIds: ['rota'], notify: 'primary' as const }, want: ['p'] },
    { case: 'a person on call on two schedules, once as backup: once', level: { userIds: ['u'], scheduleIds: ['rota', 'same'], notify: 'primary_and_secondary' as const }, want: ['u', 'p', 'b'] },
  ])('$case', ({ level, want }) => {
    expect(targetPeople(level, onCall)).toEqual(want);
  });

  it('an overdue check due by the moment a level fires falls with it', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(overdueFallsWithStep({ overdue_check_at: null }, now)).toBe(false);
    expect(overdueFallsWithStep({ overdue_check_at: '2026-11-25T12:00:00.001Z' }, now)).toBe(false);
    expect(overdueFallsWithStep({ overdue_check_at: '2026-11-25T12:00:00.000Z' }, now)).toBe(true);
    expect(overdueFallsWithStep({ overdue_check_at: '2026-11-25T11:59:00.000Z' }, now)).toBe(true);
  });
});

// Issue 27, "Escalation levels that page the schedule": a level of schedules only, the secondary paged only when the
// level says so, and nobody paged twice in a step however many targets name them.
for (const db of testDatabases()) {
  describe(`levels that page the schedule [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;

    /** A schedule with `primary` on call all day every day and `backup` as its secondary, from today with no end. */
    async function rota(agent: Parameters<typeof createSchedule>[0], tenantId: string, primary: string, backup: string | null) {
      const today = new Date(h.nowMs).toISOString().slice(0, 10);
      const body = scheduleBody(primary, { timeZone: 'UTC', startTime: today, endTime: null, rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: primary, secondaryOnCall: backup }) });
      return (await createSchedule(agent, tenantId, body)).id as string;
    }
    const stepsOf = async (tenantId: string, alertId: string, userId: string) =>
      (await listAttempts(h.env.deps.db, tenantId, alertId))
        .filter((a) => a.user_id === userId)
        .map((a) => a.step)
        .sort();

    it('pages whoever is on call on a level of schedules only, the primary alone unless the level says so', async () => {
      const { owner, second, third, integration, policyId } = await setup();
      const scheduleId = await rota(owner.agent, owner.tenantId, second.userId, third.userId);
      const put = (notify?: string) =>
        owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`, {
          name: 'Schedule only',
          isDefault: true,
          level_1: { scheduleIds: [scheduleId], notificationChannels: ['email'], ...(notify ? { notify } : {}) },
        });
      const saved = await put();
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.data.level_1).toEqual({ userIds: [], scheduleIds: [scheduleId], notify: 'primary', notificationChannels: ['email'] });
      const [ownerEmail, primaryEmail, backupEmail] = await Promise.all([emailOf(owner.userId), emailOf(second.userId), emailOf(third.userId)]);

      const first = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(primaryEmail)).toHaveLength(1);
      expect(mailsTo(backupEmail)).toHaveLength(0);
      expect(mailsTo(ownerEmail)).toHaveLength(0);
      const d = await detail(owner.agent, owner.tenantId, first);
      expect(d.alert.pagedNobody).toBeNull();
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'escalated').detail).toMatchObject({ level: 1, names: [expect.any(String)] });

      expect((await put('primary_and_secondary')).data.level_1.notify).toBe('primary_and_secondary');
      await trigger(integration.key);
      await advance(0);
      expect(mailsTo(primaryEmail)).toHaveLength(2);
      expect(mailsTo(backupEmail)).toHaveLength(1);
    });

    it('pages the secondary as its own later level: the backup hears once, ten minutes in', async () => {
      const { owner, second, third, integration, policyId } = await setup();
      const scheduleId = await rota(owner.agent, owner.tenantId, second.userId, third.userId);
      const res = await owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`, {
        name: 'Backup after ten',
        isDefault: true,
        escalationTimes: { critical: 60, high: 60, medium: 60, low: 240, info: null },
        level_1: { scheduleIds: [scheduleId], notificationChannels: ['email'] },
        level_2: { scheduleIds: [scheduleId], notify: 'primary_and_secondary', timeAfterPrevious: 10, notificationChannels: ['email'] },
        level_3: { userIds: [], timeAfterPrevious: 60, notificationChannels: ['email'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const backupEmail = await emailOf(third.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(backupEmail)).toHaveLength(0);
      await advance(9 * MINUTE);
      expect(mailsTo(backupEmail)).toHaveLength(0);
      await advance(MINUTE);
      expect(mailsTo(backupEmail)).toHaveLength(1);
      expect(await stepsOf(owner.tenantId, alertId, third.userId)).toEqual(['L2']);
      expect(await stepsOf(owner.tenantId, alertId, second.userId)).toEqual(['L1', 'L2']);
    });

    it('pages a person named directly and through schedules once per step, the overdue re-page included', async () => {
      const { owner, second, integration, policyId } = await setup();
      // The owner is on level 1 by name, on call on one schedule and the backup on another.
      const mine = await rota(owner.agent, owner.tenantId, owner.userId, null);
      const theirs = await rota(owner.agent, owner.tenantId, second.userId, owner.userId);
      const res = await owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`, {
        name: 'Overlapping',
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId, second.userId], scheduleIds: [mine, theirs], notify: 'primary_and_secondary', notificationChannels: ['email', 'push'] },
        level_2: { userIds: [], timeAfterPrevious: 60, notificationChannels: ['email'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const ownerEmail = await emailOf(owner.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      expect(mailsTo(ownerEmail)).toHaveLength(1);
      expect(mailsTo(await emailOf(second.userId))).toHaveLength(1);
      const escalated = (await detail(owner.agent, owner.tenantId, alertId)).timeline.filter((e: { kind: string }) => e.kind === 'escalated');
      expect(escalated).toHaveLength(1);
      expect(escalated[0].detail.names).toHaveLength(2);
      // Overdue at 15 minutes: level 1 is paged once more, each person once.
      await advance(15 * MINUTE);
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.overdueAt).toEqual(expect.any(String));
      expect(mailsTo(ownerEmail)).toHaveLength(2);
      const attempts = (await listAttempts(h.env.deps.db, owner.tenantId, alertId)).filter((a) => a.user_id === owner.userId).map((a) => `${a.step}/${a.channel}`);
      expect(attempts.sort()).toEqual(['L1/email', 'L1/push', 'overdue/email', 'overdue/push']);
    });

    it('does not page a level twice at once when its time and the overdue check fall together', async () => {
      const { owner, second, integration, policyId } = await setup();
      const res = await owner.agent.put(`/api/tenants/${owner.tenantId}/escalationPolicies/${policyId}`, {
        name: 'Level 2 at the target',
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], notificationChannels: ['email'] },
        level_2: { userIds: [second.userId], timeAfterPrevious: 15, notificationChannels: ['email'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const secondEmail = await emailOf(second.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      await advance(15 * MINUTE);
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.overdueAt).toEqual(expect.any(String));
      expect(mailsTo(secondEmail)).toHaveLength(1);
      expect(mailsTo(await emailOf(owner.userId))).toHaveLength(1);
      expect(await stepsOf(owner.tenantId, alertId, second.userId)).toEqual(['L2']);
      const row = await h.env.deps.db.selectFrom('alerts').select(['escalation_level', 'overdue_check_at']).where('id', '=', alertId).executeTakeFirstOrThrow();
      expect(row).toEqual({ escalation_level: 2, overdue_check_at: null });
      // Nothing is left to fire: running on pages nobody again.
      await advance(60 * MINUTE);
      expect(mailsTo(secondEmail)).toHaveLength(1);
    });

    it('pages level 1 once when its start waited past the target: the start marks it overdue', async () => {
      const { owner, third, integration } = await setup();
      // A subscriber sends the tenant's alerts through the start sweep, which runs only 20 minutes later (critical: 15).
      await savePreferences(third.agent, owner.tenantId, { email: false, alertSubscriptions: [{ type: 'priority', value: 'critical' }] });
      const alertId = await trigger(integration.key);
      await advance(20 * MINUTE);
      expect(mailsTo(await emailOf(owner.userId))).toHaveLength(1);
      expect(await stepsOf(owner.tenantId, alertId, owner.userId)).toEqual(['L1']);
      const row = await h.env.deps.db.selectFrom('alerts').select(['escalation_level', 'overdue_at', 'overdue_check_at']).where('id', '=', alertId).executeTakeFirstOrThrow();
      expect(row).toEqual({ escalation_level: 1, overdue_at: expect.any(String), overdue_check_at: null });
      expect((await detail(owner.agent, owner.tenantId, alertId)).timeline.some((e: { kind: string }) => e.kind === 'overdue')).toBe(true);
    });
  });
}
