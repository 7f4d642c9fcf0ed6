import { expect, it } from 'vitest';
import { SCHEDULE_MSG, WEEKDAY_KEYS } from '../../../contract/schedules.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerTeam } from '../../test/factories.ts';
import { scheduleUrl, schedulesUrl } from '../../test/schedules.ts';
import { whoIsOnCall } from './schedules.service.ts';

const noTemplate = Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, []]));

describeEachDatabase('rotation layers through the API', (t) => {
  it('saves a schedule of layers only, answers who is on call from them, and shows them to every member', async () => {
    const env = t();
    const { owner, admin, user, tenantId } = await registerTeam(env);
    const body = {
      name: 'Weekly rotation',
      startTime: '2026-01-01',
      endTime: '2026-12-31',
      timeZone: 'Europe/Berlin',
      rotations: noTemplate,
      layers: [
        { name: '24/7', participants: [owner.userId, admin.userId, user.userId], start: '2026-03-02T09:00:00+01:00', shiftLength: { unit: 'weeks', count: 1 } },
        { name: 'Office hours', participants: [user.userId], start: '2026-03-02T09:00:00+01:00', shiftLength: { unit: 'days', count: 1 }, restrictions: [{ days: [5, 1, 2, 3, 4], from: '09:00', to: '17:00' }] },
      ],
    };
    const created = await owner.agent.post(schedulesUrl(tenantId), body);
    expect(created.statusCode).toBe(201);
    expect(created.data.layers[0]).toEqual({ ...body.layers[0], start: '2026-03-02T08:00:00.000Z', restrictions: [] });
    expect(created.data.layers[1].restrictions).toEqual([{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }]);
    const id = created.data.id as string;

    // Saturday 7 March, noon: the 24/7 layer (week 1: the owner); Wednesday 11 March, noon: office hours (the user);
    // that evening, week 2 of 24/7 (the admin); handoffs at 09:00 local also after the clocks move on 29 March.
    const at = async (iso: string) => (await user.agent.get(`${scheduleUrl(tenantId, id, '/onCall')}?at=${encodeURIComponent(iso)}`)).data;
    expect((await at('2026-03-07T11:00:00Z')).primary).toBe(owner.userId);
    const office = await at('2026-03-11T11:00:00Z');
    expect([office.primary, office.shiftEndsAt]).toEqual([user.userId, '2026-03-11T16:00:00.000Z']);
    expect(office.next).toEqual({ at: '2026-03-11T16:00:00.000Z', primary: admin.userId, secondary: null });
    expect((await at('2026-03-30T06:59:00Z')).primary).toBe(owner.userId); // Monday 08:59 CEST: still week 4 (3 % 3 = 0)
    expect((await at('2026-03-30T07:00:00Z')).primary).toBe(user.userId); // 09:00 CEST: office hours on top
    expect((await at('2026-03-30T16:00:00Z')).primary).toBe(admin.userId); // after them, week 5 of 24/7: 4 % 3 = 1
    // The escalation engine reads the same answer.
    expect((await whoIsOnCall(env.deps.db, tenantId, id, new Date('2026-03-11T11:00:00Z')))?.primary).toBe(user.userId);

    // Every member reads schedules and their layers; only owners and admins write them.
    const read = await user.agent.get(scheduleUrl(tenantId, id));
    expect(read.statusCode).toBe(200);
    expect(read.data.layers).toHaveLength(2);
    expect((await user.agent.put(scheduleUrl(tenantId, id), body)).statusCode).toBe(403);

    // The timeline joins the layers: the office-hours stretch inside the week's 24/7 shift.
    const timeline = await user.agent.get(`${scheduleUrl(tenantId, id, '/timeline')}?from=${encodeURIComponent('2026-03-11T00:00:00+01:00')}`);
    expect(timeline.statusCode).toBe(200);
    const wed = timeline.data.segments.filter((s: { start: string }) => s.start.startsWith('2026-03-11'));
    expect(wed.map((s: { start: string; primary: string }) => [s.start, s.primary])).toEqual([
      ['2026-03-11T08:00:00.000Z', user.userId],
      ['2026-03-11T16:00:00.000Z', admin.userId],
    ]);
  });

  it('refuses layers with the field and the reason: no one in it, a bad start, length, window, or a stranger', async () => {
    const env = t();
    const { owner, tenantId } = await registerTeam(env);
    const stranger = await addMember(env.deps, env.app, (await registerTeam(env)).tenantId, 'user');
    const base = { name: 'Bad', startTime: '2026-01-01', endTime: '2026-12-31', rotations: noTemplate };
    const layer = { name: 'L', participants: [owner.userId], start: '2026-03-02T08:00:00Z', shiftLength: { unit: 'weeks', count: 1 } };
    const post = (layers: unknown[]) => owner.agent.post(schedulesUrl(tenantId), { ...base, layers });
    const cases: Array<[unknown, string, string]> = [
      [{ ...layer, participants: [] }, 'layers.0.participants', SCHEDULE_MSG.layerParticipantsRequired],
      [{ ...layer, start: 'next monday' }, 'layers.0.start', SCHEDULE_MSG.layerStartInvalid],
      [{ ...layer, shiftLength: { unit: 'weeks', count: 0 } }, 'layers.0.shiftLength.count', SCHEDULE_MSG.layerLengthInvalid],
      [{ ...layer, shiftLength: { unit: 'months', count: 1 } }, 'layers.0.shiftLength.unit', SCHEDULE_MSG.layerUnitInvalid],
      [{ ...layer, restrictions: [{ days: [], from: '09:00', to: '17:00' }] }, 'layers.0.restrictions.0.days', SCHEDULE_MSG.restrictionDaysRequired],
      [{ ...layer, restrictions: [{ days: [1], from: '9am', to: '17:00' }] }, 'layers.0.restrictions.0.from', SCHEDULE_MSG.restrictionTimeInvalid],
      [{ ...layer, restrictions: [{ days: [1], from: '09:00', to: '09:00' }] }, 'layers.0.restrictions.0.to', SCHEDULE_MSG.restrictionEmpty],
      [{ ...layer, participants: [owner.userId, stranger.userId] }, 'layers.0.participants.1', SCHEDULE_MSG.notAMember],
    ];
    for (const [bad, field, message] of cases) {
      const res = await post([bad]);
      expect(res.statusCode, field).toBe(400);
      expect(res.data.error.fields?.[field], field).toBe(message);
    }
    // Without layers, the template still needs a shift on every weekday (spec section 5).
    const res = await post([]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.data.error.fields)).toContain('rotations.0');
  });
});
