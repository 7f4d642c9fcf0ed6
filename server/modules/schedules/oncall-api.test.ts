import { expect, it } from 'vitest';
import ICAL from 'ical.js';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerTeam } from '../../test/factories.ts';
import { createSchedule, everyDay, scheduleBody, scheduleUrl } from '../../test/schedules.ts';
import { upcomingHandovers, whoIsOnCall } from './schedules.service.ts';

describeEachDatabase('who is on call, overrides and my on-call', (t) => {
  it('says who is on call at a moment, per schedule and for the tenant, with the next handover', async () => {
    const env = t();
    const { owner, admin, user, tenantId } = await registerTeam(env);
    // Berlin, 2026-10-25 is the night the clocks go back: the 1–9 shift lasts 9 hours.
    const s = await createSchedule(
      owner.agent,
      tenantId,
      scheduleBody(owner.userId, {
        name: 'Berlin',
        timeZone: 'Europe/Berlin',
        startTime: '2026-10-01',
        endTime: '2026-10-31',
        rotations: everyDay(
          { startHour: 0, endHour: 1, primaryOnCall: owner.userId },
          { startHour: 1, endHour: 9, primaryOnCall: admin.userId, secondaryOnCall: user.userId },
          { startHour: 9, endHour: 24, primaryOnCall: owner.userId },
        ),
      }),
    );
    const at = (iso: string) => owner.agent.get(`${scheduleUrl(tenantId, s.id, '/onCall')}?at=${encodeURIComponent(iso)}`);
    const night = await at('2026-10-25T01:30:00+00:00');
    expect(night.statusCode).toBe(200);
    expect(night.data).toEqual({
      scheduleId: s.id,
      scheduleName: 'Berlin',
      isDefault: false,
      at: '2026-10-25T01:30:00.000Z',
      primary: admin.userId,
      secondary: user.userId,
      shiftEndsAt: '2026-10-25T08:00:00.000Z',
      next: { at: '2026-10-25T08:00:00.000Z', primary: owner.userId, secondary: null },
    });
    // Before the start date and after the end date (in Berlin), nobody.
    expect((await at('2026-09-30T21:59:59Z')).data).toMatchObject({ primary: null, secondary: null, shiftEndsAt: null, next: { at: '2026-09-30T22:00:00.000Z', primary: owner.userId } });
    expect((await at('2026-10-31T23:00:00Z')).data).toMatchObject({ primary: null, next: null });
    expect((await at('2026-10-31T22:59:00Z')).data).toMatchObject({ primary: owner.userId, shiftEndsAt: '2026-10-31T23:00:00.000Z' });
    expect(await whoIsOnCall(env.deps.db, tenantId, s.id, new Date('2026-10-25T07:59:59Z'))).toEqual({ primary: admin.userId, secondary: user.userId, shiftEndsAt: '2026-10-25T08:00:00.000Z' });
    // The handover notifier's sweep (every tenant at once): the next change of primary within its horizon, if any.
    const handovers = async (iso: string) => (await upcomingHandovers(env.deps.db, new Date(iso), 2 * 3600_000)).filter((h) => h.scheduleId === s.id);
    expect(await handovers('2026-10-25T07:00:00Z')).toEqual([{ tenantId, scheduleId: s.id, scheduleName: 'Berlin', at: Date.parse('2026-10-25T08:00:00Z'), primary: owner.userId }]);
    expect(await handovers('2026-10-25T09:00:00Z')).toEqual([]);

    const bad = await owner.agent.get(`${scheduleUrl(tenantId, s.id, '/onCall')}?at=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error.fields.at).toBe('at must be an ISO-8601 time');

    await createSchedule(owner.agent, tenantId, scheduleBody(owner.userId, { name: 'All day', isDefault: true }));
    const all = await owner.agent.get(`/api/tenants/${tenantId}/onCall?at=2026-10-25T01:30:00Z`);
    expect(all.data.at).toBe('2026-10-25T01:30:00.000Z');
    expect(all.data.items.map((i: { scheduleName: string; primary: string }) => [i.scheduleName, i.primary])).toEqual([
      ['All day', owner.userId],
      ['Berlin', admin.userId],
    ]);
    // Without ?at the answer is about now.
    const nowRes = await owner.agent.get(`/api/tenants/${tenantId}/onCall`);
    expect(Math.abs(Date.parse(nowRes.data.at) - Date.now())).toBeLessThan(60_000);
  });

  it('manages overrides: owners, admins and the replaced person create them; they win over the rotation', async () => {
    const env = t();
    const { owner, admin, user, tenantId } = await registerTeam(env);
    const other = await addMember(env.deps, env.app, tenantId, 'user');
    const s = await createSchedule(owner.agent, tenantId, scheduleBody(user.userId, { timeZone: 'UTC', endTime: '2027-12-31' }));
    const ovUrl = scheduleUrl(tenantId, s.id, '/overrides');
    const range = { startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-01-02T00:00:00Z' };
    // Validation texts of our own.
    for (const [b, field, message] of [
      [{ ...range, userId: admin.userId }, 'replacedUserId', 'Choose the person being replaced'],
      [{ ...range, replacedUserId: user.userId }, 'userId', 'Choose who takes over'],
      [{ ...range, replacedUserId: user.userId, userId: user.userId }, 'userId', 'Choose someone other than the person being replaced'],
      [{ replacedUserId: user.userId, userId: admin.userId, startsAt: 'soon', endsAt: range.endsAt }, 'startsAt', 'Enter a valid start time'],
      [{ replacedUserId: user.userId, userId: admin.userId, startsAt: range.endsAt, endsAt: range.startsAt }, 'endsAt', 'The override must end after it starts'],
      [{ replacedUserId: user.userId, userId: admin.userId, startsAt: range.startsAt, endsAt: '2027-06-01T00:00:00Z' }, 'endsAt', 'An override can last at most 90 days'],
      [{ ...range, replacedUserId: user.userId, userId: 'stranger' }, 'userId', 'This person is not a member of this organization'],
    ] as const) {
      const res = await owner.agent.post(ovUrl, b);
      expect(res.statusCode, message).toBe(400);
      expect(res.data.error.fields[field]).toBe(message);
    }
    // The replaced person may swap themselves out; another member may not.
    const byOther = await other.agent.post(ovUrl, { ...range, replacedUserId: user.userId, userId: other.userId });
    expect(byOther.statusCode).toBe(403);
    expect(byOther.data.error.message).toBe('Only owners, admins and the person being replaced can add this override');
    const mine = await user.agent.post(ovUrl, { ...range, replacedUserId: user.userId, userId: other.userId, note: ' Sick swap ' });
    expect(mine.statusCode).toBe(201);
    expect(mine.data).toMatchObject({ scheduleId: s.id, replacedUserId: user.userId, userId: other.userId, startsAt: '2027-01-01T00:00:00.000Z', note: 'Sick swap', createdBy: user.userId });
    const byAdmin = await admin.agent.post(ovUrl, { replacedUserId: user.userId, userId: admin.userId, startsAt: '2027-01-01T06:00:00+01:00', endsAt: '2027-01-01T08:00:00Z' });
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.data.startsAt).toBe('2027-01-01T05:00:00.000Z');

    const at = async (iso: string) => (await user.agent.get(`${scheduleUrl(tenantId, s.id, '/onCall')}?at=${iso}`)).data;
    expect(await at('2026-12-31T23:00:00Z')).toMatchObject({ primary: user.userId, shiftEndsAt: '2027-01-01T00:00:00.000Z' });
    expect(await at('2027-01-01T01:00:00Z')).toMatchObject({ primary: other.userId, shiftEndsAt: '2027-01-01T05:00:00.000Z' });
    expect(await at('2027-01-01T06:00:00Z')).toMatchObject({ primary: admin.userId, shiftEndsAt: '2027-01-01T08:00:00.000Z' });
    expect(await at('2027-01-02T00:00:00Z')).toMatchObject({ primary: user.userId });

    // The timeline shows them.
    const tl = (await user.agent.get(`${scheduleUrl(tenantId, s.id, '/timeline')}?from=2027-01-01T12:00:00Z`)).data;
    expect(tl).toMatchObject({ scheduleId: s.id, timeZone: 'UTC', from: '2027-01-01T00:00:00.000Z', to: '2027-01-15T00:00:00.000Z', gaps: [] });
    expect(tl.segments.slice(0, 4).map((x: { start: string; primary: string; primaryOverride: boolean }) => [x.start, x.primary, x.primaryOverride])).toEqual([
      ['2027-01-01T00:00:00.000Z', other.userId, true],
      ['2027-01-01T05:00:00.000Z', admin.userId, true],
      ['2027-01-01T08:00:00.000Z', other.userId, true],
      ['2027-01-02T00:00:00.000Z', user.userId, false],
    ]);

    const list = await other.agent.get(ovUrl);
    expect(list.data.items.map((o: { id: string }) => o.id)).toEqual([mine.data.id, byAdmin.data.id]);
    // Removal: not by an uninvolved member; by the replaced person, an admin, or whoever added it.
    const third = await addMember(env.deps, env.app, tenantId, 'user');
    expect((await third.agent.delete(`${ovUrl}/${mine.data.id}`)).statusCode).toBe(403);
    expect((await user.agent.delete(`${ovUrl}/${mine.data.id}`)).data).toEqual({ ok: true });
    expect((await user.agent.delete(`${ovUrl}/${mine.data.id}`)).data).toEqual({ error: { code: 'not_found', message: 'Override not found' } });
    expect((await admin.agent.delete(`${ovUrl}/${byAdmin.data.id}`)).statusCode).toBe(200);
    expect((await owner.agent.get(ovUrl)).data.items).toEqual([]);
    expect(await at('2027-01-01T01:00:00Z')).toMatchObject({ primary: user.userId });
  });

  it('lists coverage gaps on the 14-day timeline in the schedule’s zone', async () => {
    const env = t();
    const { owner, tenantId } = await registerTeam(env);
    const rotations = everyDay({ startHour: 0, endHour: 24, primaryOnCall: owner.userId });
    rotations['6'] = [{ startHour: 8, endHour: 24, primaryOnCall: owner.userId }];
    const s = await createSchedule(owner.agent, tenantId, scheduleBody(owner.userId, { timeZone: 'America/New_York', rotations }));
    const tl = (await owner.agent.get(`${scheduleUrl(tenantId, s.id, '/timeline')}?from=2026-07-01T12:00:00Z`)).data;
    expect(tl.from).toBe('2026-07-01T04:00:00.000Z');
    expect(tl.gaps).toEqual([
      { start: '2026-07-04T04:00:00.000Z', end: '2026-07-04T12:00:00.000Z', label: 'No one on call Sat 12 AM – 8 AM' },
      { start: '2026-07-11T04:00:00.000Z', end: '2026-07-11T12:00:00.000Z', label: 'No one on call Sat 12 AM – 8 AM' },
    ]);
  });

  it('shows a removed member’s shifts as theirs until edited, and refuses to save them again', async () => {
    const env = t();
    const { owner, user, tenantId } = await registerTeam(env);
    const s = await createSchedule(owner.agent, tenantId, scheduleBody(user.userId, { timeZone: 'UTC' }));
    await env.deps.db.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('user_id', '=', user.userId).execute();
    const members = (await owner.agent.get(`/api/tenants/${tenantId}/onCallMembers`)).data.items.map((m: { userId: string }) => m.userId);
    expect(members).not.toContain(user.userId);
    expect((await owner.agent.get(scheduleUrl(tenantId, s.id))).data.rotations['0'][0].primaryOnCall).toBe(user.userId);
    // The card still names them (as 'Unknown User'), but the engine never pages someone who has left.
    expect((await owner.agent.get(`${scheduleUrl(tenantId, s.id, '/onCall')}?at=2026-06-01T12:00:00Z`)).data.primary).toBe(user.userId);
    expect(await whoIsOnCall(env.deps.db, tenantId, s.id, new Date('2026-06-01T12:00:00Z'))).toEqual({ primary: null, secondary: null, shiftEndsAt: '2026-06-02T00:00:00.000Z' });
    const res = await owner.agent.put(scheduleUrl(tenantId, s.id), scheduleBody(user.userId));
    expect(res.statusCode).toBe(400);
    expect(res.data.error.fields['rotations.0.0.primaryOnCall']).toBe('This person is not a member of this organization');
  });

  it('shows my next shifts and serves them as a calendar feed at a secret URL that can be renewed and revoked', async () => {
    const env = t();
    const { owner, admin, tenantId } = await registerTeam(env);
    const today = new Date();
    const d = (days: number) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);
    const s = await createSchedule(
      owner.agent,
      tenantId,
      scheduleBody(owner.userId, {
        name: 'Weekdays',
        timeZone: 'Europe/Berlin',
        startTime: d(-1),
        endTime: d(120),
        rotations: everyDay({ startHour: 0, endHour: 9, primaryOnCall: admin.userId }, { startHour: 9, endHour: 17, primaryOnCall: owner.userId, secondaryOnCall: admin.userId }),
      }),
    );
    const mine = (await admin.agent.get(`/api/tenants/${tenantId}/myOnCall`)).data;
    expect(mine.feed).toBeNull();
    expect(mine.shifts.length).toBeGreaterThan(80);
    expect(mine.shifts.every((x: { scheduleId: string; scheduleName: string }) => x.scheduleId === s.id && x.scheduleName === 'Weekdays')).toBe(true);
    // The night as primary and the day as secondary join into one stretch only when the role is the same.
    expect(new Set(mine.shifts.map((x: { role: string }) => x.role))).toEqual(new Set(['primary', 'secondary']));

    const made = await admin.agent.post(`/api/tenants/${tenantId}/myOnCall/calendarFeed`);
    expect(made.statusCode).toBe(201);
    const feedPath = new URL(made.data.url).pathname;
    expect(feedPath).toMatch(/^\/api\/calendarFeeds\/[A-Za-z0-9_-]{40,}\.ics$/);
    expect((await admin.agent.get(`/api/tenants/${tenantId}/myOnCall`)).data.feed).toEqual({ createdAt: made.data.createdAt });

    // No session needed: the URL is the credential. It parses as iCalendar with the right times.
    const feed = await new Agent(env.app).get(feedPath);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    const events = new ICAL.Component(ICAL.parse(feed.body)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    // The feed holds every upcoming shift with its exact times (and the past week's too); none is cut at "now".
    const byStart = new Map(events.map((e) => [e.startDate.toJSDate().toISOString(), e]));
    for (const x of mine.shifts as Array<{ start: string; end: string; role: string }>) {
      const e = byStart.get(x.start);
      expect(e, x.start).toBeDefined();
      expect(e!.endDate.toJSDate().toISOString()).toBe(x.end);
      expect(e!.summary).toBe(`On call (${x.role}): Weekdays`);
    }
    expect(events.length).toBeGreaterThan(mine.shifts.length);
    expect(events.length).toBeLessThanOrEqual(mine.shifts.length + 2 * 8);
    // Every night event starts at midnight and every day event ends at 17:00, Berlin time, whatever the offset.
    const berlinHour = (date: Date) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(date));
    for (const e of events.slice(0, -1)) {
      if (e.summary.includes('primary')) expect([berlinHour(e.startDate.toJSDate()), berlinHour(e.endDate.toJSDate())]).toEqual([0, 9]);
      else expect([berlinHour(e.startDate.toJSDate()), berlinHour(e.endDate.toJSDate())]).toEqual([9, 17]);
    }
    // Overrides are in it too.
    const ov = await owner.agent.post(scheduleUrl(tenantId, s.id, '/overrides'), {
      replacedUserId: owner.userId,
      userId: admin.userId,
      startsAt: new Date(today.getTime() + 10 * 86_400_000).toISOString(),
      endsAt: new Date(today.getTime() + 12 * 86_400_000).toISOString(),
    });
    expect(ov.statusCode).toBe(201);
    expect((await new Agent(env.app).get(feedPath)).body).toContain('SUMMARY:On call (primary\\, override): Weekdays');

    // Renewing replaces the URL; revoking ends it. Either old URL answers 404.
    const renewed = await admin.agent.post(`/api/tenants/${tenantId}/myOnCall/calendarFeed`);
    expect(renewed.data.url).not.toBe(made.data.url);
    expect((await new Agent(env.app).get(feedPath)).statusCode).toBe(404);
    const renewedPath = new URL(renewed.data.url).pathname;
    expect((await new Agent(env.app).get(renewedPath)).statusCode).toBe(200);
    expect((await admin.agent.delete(`/api/tenants/${tenantId}/myOnCall/calendarFeed`)).data).toEqual({ ok: true });
    expect((await new Agent(env.app).get(renewedPath)).statusCode).toBe(404);
    expect((await admin.agent.delete(`/api/tenants/${tenantId}/myOnCall/calendarFeed`)).statusCode).toBe(404);
    expect((await new Agent(env.app).get('/api/calendarFeeds/not-a-token.ics')).statusCode).toBe(404);

    // A member who leaves the tenant loses the feed.
    const again = await admin.agent.post(`/api/tenants/${tenantId}/myOnCall/calendarFeed`);
    await env.deps.db.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('user_id', '=', admin.userId).execute();
    expect((await new Agent(env.app).get(new URL(again.data.url).pathname)).statusCode).toBe(404);
  });
});
