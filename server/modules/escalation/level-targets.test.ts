import { describe, expect, it } from 'vitest';
import { ESCALATION_MSG, EscalationPolicyInput } from '../../../contract/escalation.ts';
import { MSG } from '../../../contract/messages.ts';
import { describeEachDatabase, type Agent } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { createSchedule, scheduleBody } from '../../test/schedules.ts';
import { up as migrateTargets } from '../../db/migrations/0031_escalation_targets.ts';

const url = (tenantId: string, policyId?: string) => `/api/tenants/${tenantId}/escalationPolicies${policyId ? `/${policyId}` : ''}`;

describe('level targets in the policy input (pure)', () => {
  const level1 = (body: Record<string, unknown>) => EscalationPolicyInput.safeParse({ name: 'P', level_1: body });
  const issues = (body: Record<string, unknown>) => {
    const r = level1(body);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it.each([
    { case: 'users only', body: { userIds: ['u'] } },
    { case: 'schedules only', body: { scheduleIds: ['s'] } },
    { case: 'both', body: { userIds: ['u'], scheduleIds: ['s'], notify: 'primary_and_secondary' } },
  ])('takes a level 1 of $case', ({ body }) => {
    expect(issues(body)).toEqual([]);
  });

  it.each([
    { case: 'nothing', body: {} },
    { case: 'empty lists', body: { userIds: [], scheduleIds: [] } },
    { case: 'blank ids', body: { userIds: [' '], scheduleIds: [''] } },
  ])('refuses a level 1 of $case with the spec text on its users', ({ body }) => {
    expect(issues(body)).toContain(`level_1.userIds: ${MSG.level1UserRequired}`);
  });

  it('pages the primary only unless a level says otherwise; anything else is refused', () => {
    const parsed = EscalationPolicyInput.parse({ name: 'P', level_1: { scheduleIds: ['s'] }, level_2: { notify: 'primary_and_secondary' } });
    expect([parsed.level_1.notify, parsed.level_2.notify, parsed.level_3.notify]).toEqual(['primary', 'primary_and_secondary', 'primary']);
    expect(issues({ scheduleIds: ['s'], notify: 'secondary' })).toEqual([`level_1.notify: ${ESCALATION_MSG.notifyInvalid}`]);
  });

  it('reports the spec text beside another field’s error in the same level', () => {
    expect(issues({ notificationChannels: ['fax'] })).toEqual([`level_1.notificationChannels.0: ${ESCALATION_MSG.channelsInvalid}`, `level_1.userIds: ${MSG.level1UserRequired}`]);
  });
});

describeEachDatabase('escalation levels that page the schedule', (t) => {
  async function tenantWithSchedule() {
    const owner = await registerOwner(t().app);
    const schedule = await createSchedule(owner.agent, owner.tenantId, scheduleBody(owner.userId));
    return { owner, scheduleId: schedule.id as string };
  }
  const send = (agent: Agent, tenantId: string, body: Record<string, unknown>, policyId?: string) => (policyId ? agent.put(url(tenantId, policyId), body) : agent.post(url(tenantId), body));

  it('saves a level 1 of schedules only, on create and update, with whom it pages there', async () => {
    const { owner, scheduleId } = await tenantWithSchedule();
    const created = await send(owner.agent, owner.tenantId, { name: 'Rota', level_1: { scheduleIds: [scheduleId] } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.data.level_1).toEqual({ userIds: [], scheduleIds: [scheduleId], notify: 'primary', notificationChannels: ['email', 'push'] });
    const updated = await send(owner.agent, owner.tenantId, { name: 'Rota', level_1: { scheduleIds: [scheduleId], notify: 'primary_and_secondary' }, level_2: { scheduleIds: [scheduleId] } }, created.data.id);
    expect(updated.statusCode, updated.body).toBe(200);
    expect([updated.data.level_1.notify, updated.data.level_2.notify]).toEqual(['primary_and_secondary', 'primary']);
    expect((await owner.agent.get(url(owner.tenantId, created.data.id))).data).toEqual(updated.data);
  });

  it('refuses a level 1 with neither a user nor a schedule (400, the spec text), on create and update', async () => {
    const { owner, scheduleId } = await tenantWithSchedule();
    const existing = await send(owner.agent, owner.tenantId, { name: 'Rota', level_1: { scheduleIds: [scheduleId] } });
    for (const policyId of [undefined, existing.data.id as string]) {
      const res = await send(owner.agent, owner.tenantId, { name: 'Empty', level_1: { userIds: [], scheduleIds: [] }, level_2: { scheduleIds: [scheduleId] } }, policyId);
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toEqual({ code: 'validation_failed', message: MSG.level1UserRequired, fields: { 'level_1.userIds': MSG.level1UserRequired } });
      const bad = await send(owner.agent, owner.tenantId, { name: 'Bad', level_1: { scheduleIds: [scheduleId], notify: 'everyone' } }, policyId);
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields).toEqual({ 'level_1.notify': ESCALATION_MSG.notifyInvalid });
    }
    expect((await owner.agent.get(url(owner.tenantId))).data.items).toEqual([existing.data]);
  });

  it('refuses another tenant’s schedule as the only target of level 1', async () => {
    const { owner } = await tenantWithSchedule();
    const other = await tenantWithSchedule();
    const res = await send(owner.agent, owner.tenantId, { name: 'Theirs', level_1: { scheduleIds: [other.scheduleId] } });
    expect(res.statusCode).toBe(400);
    expect(res.data.error.fields).toEqual({ 'level_1.scheduleIds': ESCALATION_MSG.unknownSchedules });
  });

  it('reads levels stored before issue 27 as paging the primary, and migration 0031 writes that down', async () => {
    const env = t();
    const { owner, scheduleId } = await tenantWithSchedule();
    const created = await send(owner.agent, owner.tenantId, { name: 'Old', level_1: { userIds: [owner.userId], scheduleIds: [scheduleId] } });
    const old = JSON.stringify({ userIds: [owner.userId], scheduleIds: [scheduleId], notificationChannels: ['email'] });
    await env.deps.db.updateTable('escalation_policies').set({ level_1: old, level_2: 'not json' }).where('id', '=', created.data.id).execute();
    expect((await owner.agent.get(url(owner.tenantId, created.data.id))).data.level_1.notify).toBe('primary');
    await migrateTargets(env.deps.db);
    const row = await env.deps.db.selectFrom('escalation_policies').select(['level_1', 'level_2', 'level_3']).where('id', '=', created.data.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.level_1)).toEqual({ userIds: [owner.userId], scheduleIds: [scheduleId], notificationChannels: ['email'], notify: 'primary' });
    expect(row.level_2).toBe('not json');
    expect(JSON.parse(row.level_3).notify).toBe('primary');
  });
});
