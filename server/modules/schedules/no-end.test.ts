import { expect, it } from 'vitest';
import { ScheduleInput } from '../../../contract/schedules.ts';
import { MSG } from '../../../contract/messages.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerTeam } from '../../test/factories.ts';
import { createSchedule, everyDay, scheduleBody, schedulesUrl, scheduleUrl } from '../../test/schedules.ts';
import { upcomingHandovers, whoIsOnCall } from './schedules.service.ts';

// Issue 27: "Schedules end one month after creation by default; there is no schedule without an end." `endTime` may
// be null: no end. Left out it is still missing (spec section 5's date check).
it('takes a null end date as no end; a missing or invalid one is still refused (pure)', () => {
  const body = scheduleBody('u1', { endTime: null });
  expect(ScheduleInput.parse(body).endTime).toBeNull();
  const issues = (b: Record<string, unknown>) => {
    const r = ScheduleInput.safeParse(b);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  expect(issues({ ...body, endTime: undefined })).toEqual([`endTime: ${MSG.invalidDateFormat}`]);
  expect(issues({ ...body, endTime: '' })).toEqual([`endTime: ${MSG.invalidDateFormat}`]);
});

describeEachDatabase('schedules without an end', (t) => {
  it('creates, reads, lists and updates a schedule with no end', async () => {
    const { owner, user, tenantId } = await registerTeam(t());
    const s = await createSchedule(owner.agent, tenantId, scheduleBody(owner.userId, { endTime: null }));
    expect(s.endTime).toBeNull();
    expect((await owner.agent.get(scheduleUrl(tenantId, s.id))).data.endTime).toBeNull();
    // Every member reads it as it is.
    expect((await user.agent.get(schedulesUrl(tenantId))).data.items.find((x: { id: string }) => x.id === s.id).endTime).toBeNull();
    const dated = await owner.agent.put(scheduleUrl(tenantId, s.id), scheduleBody(owner.userId, { endTime: '2027-03-31' }));
    expect(dated.statusCode, dated.body).toBe(200);
    expect(dated.data.endTime).toBe('2027-03-31');
    const open = await owner.agent.put(scheduleUrl(tenantId, s.id), scheduleBody(owner.userId, { endTime: null }));
    expect(open.data.endTime).toBeNull();
    const missing = await owner.agent.put(scheduleUrl(tenantId, s.id), { ...scheduleBody(owner.userId), endTime: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.data.error.fields).toEqual({ endTime: MSG.invalidDateFormat });
  });

  it('says who is on call far in the future, with handovers and the timeline, and not before its start', async () => {
    const env = t();
    const { owner, admin, tenantId } = await registerTeam(env);
    const s = await createSchedule(
      owner.agent,
      tenantId,
      scheduleBody(owner.userId, {
        timeZone: 'Europe/Berlin',
        startTime: '2026-01-01',
        endTime: null,
        rotations: everyDay({ startHour: 0, endHour: 8, primaryOnCall: admin.userId }, { startHour: 8, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: admin.userId }),
      }),
    );
    const at = async (iso: string) => (await owner.agent.get(`${scheduleUrl(tenantId, s.id, '/onCall')}?at=${encodeURIComponent(iso)}`)).data;
    // 2100 and 2999, summer time in Berlin (UTC+2): 07:00 UTC is 09:00 there.
    for (const year of [2100, 2999]) {
      expect(await at(`${year}-07-01T07:00:00Z`)).toMatchObject({ primary: owner.userId, secondary: admin.userId, shiftEndsAt: `${year}-07-01T22:00:00.000Z`, next: { at: `${year}-07-01T22:00:00.000Z`, primary: admin.userId } });
    }
    expect(await whoIsOnCall(env.deps.db, tenantId, s.id, new Date('2150-01-15T03:00:00Z'))).toMatchObject({ primary: admin.userId, secondary: null });
    expect(await at('2025-12-31T22:59:00Z')).toMatchObject({ primary: null, next: { at: '2025-12-31T23:00:00.000Z', primary: admin.userId } });
    // The handover notices keep coming for it.
    const handovers = (await upcomingHandovers(env.deps.db, new Date('2031-05-05T05:00:00Z'), 2 * 3600_000)).filter((h) => h.scheduleId === s.id);
    expect(handovers).toEqual([expect.objectContaining({ at: Date.parse('2031-05-05T06:00:00Z'), primary: owner.userId })]);
    const timeline = await owner.agent.get(`${scheduleUrl(tenantId, s.id, '/timeline')}?from=${encodeURIComponent('2400-03-01T00:00:00Z')}`);
    expect(timeline.statusCode).toBe(200);
    expect(timeline.data.gaps).toEqual([]);
    expect(timeline.data.days).toHaveLength(14);
  });
});
