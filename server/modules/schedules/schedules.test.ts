import { describe, expect, it } from 'vitest';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner, registerTeam } from '../../test/factories.ts';
import { createSchedule, everyDay, scheduleBody, schedulesUrl, scheduleUrl } from '../../test/schedules.ts';
import { whoIsOnCall } from './schedules.service.ts';
import { canCreateOverride, canDeleteOverride } from './schedules.policy.ts';

describe('override policies (pure)', () => {
  const actor = (role: 'owner' | 'admin' | 'user', id = 'me') => ({ user: { id }, role });
  it('lets owners, admins and the replaced person create an override', () => {
    expect(canCreateOverride(actor('owner'), { replacedUserId: 'x' })).toBe(true);
    expect(canCreateOverride(actor('admin'), { replacedUserId: 'x' })).toBe(true);
    expect(canCreateOverride(actor('user'), { replacedUserId: 'me' })).toBe(true);
    expect(canCreateOverride(actor('user'), { replacedUserId: 'x' })).toBe(false);
  });
  it('lets owners, admins, the replaced person and its author remove one', () => {
    expect(canDeleteOverride(actor('admin'), { replaced_user_id: 'x', created_by: 'y' })).toBe(true);
    expect(canDeleteOverride(actor('user'), { replaced_user_id: 'me', created_by: 'y' })).toBe(true);
    expect(canDeleteOverride(actor('user'), { replaced_user_id: 'x', created_by: 'me' })).toBe(true);
    expect(canDeleteOverride(actor('user'), { replaced_user_id: 'x', created_by: null })).toBe(false);
  });
});

describeEachDatabase('on-call schedules API', (t) => {
  it('answers hostile or broken input with a 400, never a 500, and stores nothing', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const s = await createSchedule(owner.agent, owner.tenantId, scheduleBody(owner.userId));
    const p = owner.userId;
    const bodies: unknown[] = [
      null,
      [],
      'text',
      { name: 'x'.repeat(101) },
      { ...scheduleBody(p), rotations: null },
      { ...scheduleBody(p), rotations: [] },
      { ...scheduleBody(p), rotations: { 0: 'all day' } },
      { ...scheduleBody(p), rotations: { 0: [null] } },
      { ...scheduleBody(p), rotations: { 0: [{ startHour: '0', endHour: '24', primaryOnCall: p }] } },
      { ...scheduleBody(p), rotations: { 0: [{ startHour: 0.5, endHour: 24, primaryOnCall: p }] } },
      { ...scheduleBody(p), rotations: { 0: [{ startHour: -1, endHour: 24, primaryOnCall: p }] } },
      { ...scheduleBody(p), rotations: { 0: [{ startHour: 0, endHour: 24, primaryOnCall: 42 }] } },
      { ...scheduleBody(p), rotations: { 0: Array.from({ length: 25 }, (_, h) => ({ startHour: h, endHour: h + 1, primaryOnCall: p })) } },
      { ...scheduleBody(p), timeZone: '../../etc/passwd' },
      { ...scheduleBody(p), timeZone: 42 },
      { ...scheduleBody(p), startTime: '2026-01-01T00:00:00Z' },
      { ...scheduleBody(p), endTime: 20261231 },
      { ...scheduleBody(p), isDefault: 'yes' },
      { ...scheduleBody(p), description: { html: '<b>' } },
    ];
    for (const b of bodies) {
      for (const res of [await owner.agent.post(schedulesUrl(owner.tenantId), b), await owner.agent.put(scheduleUrl(owner.tenantId, s.id), b)]) {
        expect(res.statusCode, JSON.stringify(b).slice(0, 80)).toBe(400);
        expect(res.data.error.code).toMatch(/validation_failed|bad_request/);
      }
    }
    for (const q of ['at=', 'at=2026-13-01T00:00:00Z', 'at=now', `at=${'9'.repeat(300)}`]) {
      expect((await owner.agent.get(`${scheduleUrl(owner.tenantId, s.id, '/onCall')}?${q}`)).statusCode, q).toBe(400);
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/onCall?${q}`)).statusCode, q).toBe(400);
    }
    expect((await owner.agent.get(`${scheduleUrl(owner.tenantId, s.id, '/timeline')}?from=soon`)).statusCode).toBe(400);
    for (const b of [null, {}, { replacedUserId: p, userId: 5, startsAt: 1, endsAt: true }, { replacedUserId: p, userId: 'x', startsAt: '2026-01-01', endsAt: '2026-01-02' }]) {
      expect((await owner.agent.post(scheduleUrl(owner.tenantId, s.id, '/overrides'), b)).statusCode).toBe(400);
    }
    expect((await owner.agent.get(schedulesUrl(owner.tenantId))).data.items).toHaveLength(1);
    expect((await owner.agent.get(scheduleUrl(owner.tenantId, s.id, '/overrides'))).data.items).toEqual([]);
  });


  it('answers 401 without a session on every endpoint, before looking at the body', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const s = await createSchedule(owner.agent, owner.tenantId, scheduleBody(owner.userId));
    const anon = new Agent(app);
    const tid = owner.tenantId;
    for (const [method, path, b] of [
      ['GET', schedulesUrl(tid)],
      ['POST', schedulesUrl(tid), {}],
      ['GET', scheduleUrl(tid, s.id)],
      ['PUT', scheduleUrl(tid, s.id), {}],
      ['DELETE', scheduleUrl(tid, s.id)],
      ['GET', scheduleUrl(tid, s.id, '/onCall')],
      ['GET', scheduleUrl(tid, s.id, '/timeline')],
      ['GET', scheduleUrl(tid, s.id, '/overrides')],
      ['POST', scheduleUrl(tid, s.id, '/overrides'), {}],
      ['DELETE', scheduleUrl(tid, s.id, '/overrides/x')],
      ['GET', `/api/tenants/${tid}/onCall`],
      ['GET', `/api/tenants/${tid}/onCallMembers`],
      ['GET', `/api/tenants/${tid}/myOnCall`],
      ['POST', `/api/tenants/${tid}/myOnCall/calendarFeed`, {}],
      ['DELETE', `/api/tenants/${tid}/myOnCall/calendarFeed`],
    ] as const) {
      const res = await anon.request(method, path, b);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.data).toEqual({ error: { code: 'unauthorized', message: 'You must be signed in' } });
    }
  });

  it('creates, reads, lists, updates and deletes a schedule with every field', async () => {
    const env = t();
    const { owner, admin, tenantId } = await registerTeam(env);
    const rotations = everyDay(
      { startHour: 0, endHour: 8, primaryOnCall: admin.userId, secondaryOnCall: owner.userId },
      { startHour: 8, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: '' },
    );
    const res = await owner.agent.post(schedulesUrl(tenantId), { ...scheduleBody(owner.userId), name: '  Follow the sun ', rotations, id: 'forged', tenantId: 'other', createdAt: '2000-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(201);
    const s = res.data;
    expect(s).toMatchObject({
      tenantId,
      name: 'Follow the sun',
      description: 'Nights and days',
      isDefault: false,
      startTime: '2026-01-01',
      endTime: '2026-12-31',
      timeZone: 'America/New_York',
      createdBy: owner.userId,
    });
    expect(s.id).not.toBe('forged');
    expect(s.createdAt > '2020').toBe(true);
    expect(s.rotations['3']).toEqual([
      { startHour: 0, endHour: 8, primaryOnCall: admin.userId, secondaryOnCall: owner.userId },
      { startHour: 8, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: null },
    ]);
    expect((await owner.agent.get(scheduleUrl(tenantId, s.id))).data).toEqual(s);
    expect((await owner.agent.get(schedulesUrl(tenantId))).data.items).toEqual([s]);

    const upd = await admin.agent.put(scheduleUrl(tenantId, s.id), scheduleBody(admin.userId, { name: 'Renamed', description: '', timeZone: 'Europe/Berlin' }));
    expect(upd.statusCode).toBe(200);
    expect(upd.data).toMatchObject({ id: s.id, name: 'Renamed', description: null, timeZone: 'Europe/Berlin', createdAt: s.createdAt, createdBy: owner.userId });
    expect(upd.data.rotations['0']).toEqual([{ startHour: 0, endHour: 24, primaryOnCall: admin.userId, secondaryOnCall: null }]);

    expect((await admin.agent.delete(scheduleUrl(tenantId, s.id))).data).toEqual({ ok: true });
    expect((await owner.agent.get(scheduleUrl(tenantId, s.id))).data).toEqual({ error: { code: 'not_found', message: 'Schedule not found' } });
    expect((await owner.agent.get(schedulesUrl(tenantId))).data.items).toEqual([]);
  });

  describe('validation (spec section 5), on create and update', () => {
    const fullDay = (p: string) => [{ startHour: 0, endHour: 24, primaryOnCall: p }];
    const cases: Array<[string, (p: string) => Record<string, unknown>, string, string]> = [
      ['a missing name', (p) => ({ ...scheduleBody(p), name: undefined }), 'name', 'Schedule name is required'],
      ['a blank name', (p) => scheduleBody(p, { name: '   ' }), 'name', 'Schedule name is required'],
      ['a start date that is not a date', (p) => scheduleBody(p, { startTime: 'next monday' }), 'startTime', 'Invalid date format'],
      ['an end date that does not exist', (p) => scheduleBody(p, { endTime: '2026-02-30' }), 'endTime', 'Invalid date format'],
      ['a missing end date', (p) => ({ ...scheduleBody(p), endTime: undefined }), 'endTime', 'Invalid date format'],
      ['an end date before the start', (p) => scheduleBody(p, { startTime: '2026-05-01', endTime: '2026-04-30' }), 'endTime', 'End date must be after start date'],
      ['an end date equal to the start', (p) => scheduleBody(p, { startTime: '2026-05-01', endTime: '2026-05-01' }), 'endTime', 'End date must be after start date'],
      ['a weekday without shifts', (p) => scheduleBody(p, { rotations: { ...everyDay(...fullDay(p)), 4: [] } }), 'rotations.4', 'No shifts defined for Thursday'],
      ['a missing weekday', (p) => scheduleBody(p, { rotations: { 0: fullDay(p), 1: fullDay(p) } }), 'rotations.2', 'No shifts defined for Tuesday'],
      [
        'a shift without primary',
        (p) => scheduleBody(p, { rotations: { ...everyDay(...fullDay(p)), 0: [{ startHour: 0, endHour: 24, primaryOnCall: '', secondaryOnCall: p }] } }),
        'rotations.0.0.primaryOnCall',
        'Primary on-call is required for all shifts on Sunday',
      ],
      ['hours outside 0–24', (p) => scheduleBody(p, { rotations: { ...everyDay(...fullDay(p)), 1: [{ startHour: 0, endHour: 25, primaryOnCall: p }] } }), 'rotations.1.0.endHour', 'Shift hours must be whole numbers from 0 to 24'],
      ['overlapping shifts', (p) => scheduleBody(p, { rotations: { ...everyDay(...fullDay(p)), 1: [...fullDay(p), { startHour: 8, endHour: 16, primaryOnCall: p }] } }), 'rotations.1.1.startHour', 'Shifts overlap on Monday'],
      ['an unknown time zone', (p) => scheduleBody(p, { timeZone: 'Europe/Atlantis' }), 'timeZone', 'Choose a valid time zone'],
      ['rotations that are not an object', (p) => scheduleBody(p, { rotations: 'daily' }), 'rotations', 'Rotations must list the shifts of each weekday 0 (Sunday) to 6 (Saturday)'],
      ['a person who is not a member', () => scheduleBody('not-a-member'), 'rotations.0.0.primaryOnCall', 'This person is not a member of this organization'],
    ];
    for (const [what, make, field, message] of cases) {
      it(`refuses ${what} with '${message}'`, async () => {
        const { app } = t();
        const owner = await registerOwner(app);
        const existing = await createSchedule(owner.agent, owner.tenantId, scheduleBody(owner.userId, { name: 'Existing' }));
        for (const res of [await owner.agent.post(schedulesUrl(owner.tenantId), make(owner.userId)), await owner.agent.put(scheduleUrl(owner.tenantId, existing.id), make(owner.userId))]) {
          expect(res.statusCode).toBe(400);
          expect(res.data.error).toMatchObject({ code: 'validation_failed', message });
          expect(res.data.error.fields[field]).toBe(message);
        }
        const list = await owner.agent.get(schedulesUrl(owner.tenantId));
        expect(list.data.items.map((s: { name: string }) => s.name)).toEqual(['Existing']);
      });
    }

    it('reports every failing rule, the spec’s first one as the message', async () => {
      const { app } = t();
      const owner = await registerOwner(app);
      const res = await owner.agent.post(schedulesUrl(owner.tenantId), { name: '', startTime: '2026-05-01', endTime: '2026-04-01', rotations: { 0: [{ startHour: 0, endHour: 24 }] } });
      expect(res.statusCode).toBe(400);
      expect(res.data.error.message).toBe('Schedule name is required');
      expect(res.data.error.fields).toMatchObject({
        name: 'Schedule name is required',
        endTime: 'End date must be after start date',
        'rotations.0.0.primaryOnCall': 'Primary on-call is required for all shifts on Sunday',
        'rotations.1': 'No shifts defined for Monday',
        'rotations.6': 'No shifts defined for Saturday',
      });
    });
  });

  it('keeps one default per tenant: a new default clears the old one, also when saved concurrently', async () => {
    const env = t();
    const { owner, tenantId } = await registerTeam(env);
    const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
    const otherDefault = await createSchedule(other.agent, other.tenantId, scheduleBody(other.userId, { isDefault: true }));
    const a = await createSchedule(owner.agent, tenantId, scheduleBody(owner.userId, { name: 'A', isDefault: true }));
    const b = await createSchedule(owner.agent, tenantId, scheduleBody(owner.userId, { name: 'B', isDefault: true }));
    const defaults = async () => (await owner.agent.get(schedulesUrl(tenantId))).data.items.filter((s: { isDefault: boolean }) => s.isDefault).map((s: { name: string }) => s.name);
    expect(await defaults()).toEqual(['B']);
    // Re-saving the default keeps it; editing A into the default clears B.
    expect((await owner.agent.put(scheduleUrl(tenantId, b.id), scheduleBody(owner.userId, { name: 'B', isDefault: true }))).data.isDefault).toBe(true);
    expect(await defaults()).toEqual(['B']);
    await owner.agent.put(scheduleUrl(tenantId, a.id), scheduleBody(owner.userId, { name: 'A', isDefault: true }));
    expect(await defaults()).toEqual(['A']);
    // Ten concurrent saves of a default, new and edited: exactly one default remains, and every save succeeded.
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => owner.agent.post(schedulesUrl(tenantId), scheduleBody(owner.userId, { name: `C${i}`, isDefault: true }))),
      ...[a, b].flatMap((s) => [owner.agent.put(scheduleUrl(tenantId, s.id), scheduleBody(owner.userId, { name: `Edited ${s.id}`, isDefault: true }))]),
    ]);
    expect(results.map((r) => r.statusCode).every((c) => c === 200 || c === 201)).toBe(true);
    expect((await defaults()).length).toBe(1);
    // The other tenant's default was never touched.
    expect((await other.agent.get(scheduleUrl(other.tenantId, otherDefault.id))).data.isDefault).toBe(true);
  });

  it('lets owners and admins write and every member read (403 for a member’s writes)', async () => {
    const env = t();
    const { owner, user, tenantId } = await registerTeam(env);
    const s = await createSchedule(owner.agent, tenantId, scheduleBody(owner.userId));
    expect((await user.agent.get(schedulesUrl(tenantId))).data.items).toHaveLength(1);
    expect((await user.agent.get(scheduleUrl(tenantId, s.id))).statusCode).toBe(200);
    expect((await user.agent.get(scheduleUrl(tenantId, s.id, '/onCall'))).statusCode).toBe(200);
    expect((await user.agent.get(scheduleUrl(tenantId, s.id, '/timeline'))).statusCode).toBe(200);
    expect((await user.agent.get(`/api/tenants/${tenantId}/onCallMembers`)).data.items.map((m: { displayName: string }) => m.displayName)).toContain('Olivia Owner');
    const forbidden = { error: { code: 'forbidden', message: 'Only owners and admins can change on-call schedules' } };
    expect((await user.agent.post(schedulesUrl(tenantId), scheduleBody(user.userId))).data).toEqual(forbidden);
    expect((await user.agent.put(scheduleUrl(tenantId, s.id), scheduleBody(user.userId))).data).toEqual(forbidden);
    const del = await user.agent.delete(scheduleUrl(tenantId, s.id));
    expect(del.statusCode).toBe(403);
    expect((await owner.agent.get(scheduleUrl(tenantId, s.id))).statusCode).toBe(200);
  });

  it('answers 404 for another tenant’s schedules and overrides exactly like missing ones', async () => {
    const env = t();
    const a = await registerOwner(env.app, { tenantName: 'Tenant A' });
    const b = await registerOwner(env.app, { tenantName: 'Tenant B' });
    const bs = await createSchedule(b.agent, b.tenantId, scheduleBody(b.userId));
    const bo = await b.agent.post(scheduleUrl(b.tenantId, bs.id, '/overrides'), { replacedUserId: b.userId, userId: b.userId + 'x', startsAt: '2026-07-01T00:00:00Z', endsAt: '2026-07-02T00:00:00Z' });
    expect(bo.statusCode).toBe(400); // not a member: no override was made; make a real one below
    const bMember = await addMember(env.deps, env.app, b.tenantId, 'user');
    const ov = await b.agent.post(scheduleUrl(b.tenantId, bs.id, '/overrides'), { replacedUserId: b.userId, userId: bMember.userId, startsAt: '2026-07-01T00:00:00Z', endsAt: '2026-07-02T00:00:00Z' });
    expect(ov.statusCode).toBe(201);
    const notFound = { error: { code: 'not_found', message: 'Schedule not found' } };
    for (const res of [
      await a.agent.get(scheduleUrl(a.tenantId, bs.id)),
      await a.agent.put(scheduleUrl(a.tenantId, bs.id), scheduleBody(a.userId)),
      await a.agent.delete(scheduleUrl(a.tenantId, bs.id)),
      await a.agent.get(scheduleUrl(a.tenantId, bs.id, '/onCall')),
      await a.agent.get(scheduleUrl(a.tenantId, bs.id, '/timeline')),
      await a.agent.get(scheduleUrl(a.tenantId, bs.id, '/overrides')),
      await a.agent.post(scheduleUrl(a.tenantId, bs.id, '/overrides'), { replacedUserId: a.userId, userId: a.userId + 'x', startsAt: '2026-07-01T00:00:00Z', endsAt: '2026-07-02T00:00:00Z' }),
      await a.agent.get(scheduleUrl(a.tenantId, 'no-such-schedule')),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual(notFound);
    }
    expect((await a.agent.delete(scheduleUrl(a.tenantId, bs.id, `/overrides/${ov.data.id}`))).statusCode).toBe(404);
    // Through b's tenant id, a is not a member: the tenant itself is not there.
    for (const path of [schedulesUrl(b.tenantId), scheduleUrl(b.tenantId, bs.id), `/api/tenants/${b.tenantId}/onCall`, `/api/tenants/${b.tenantId}/onCallMembers`, `/api/tenants/${b.tenantId}/myOnCall`]) {
      const res = await a.agent.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.data).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    }
    // The engine's look-up is scoped the same way (escalation checks a policy's schedules within its tenant too).
    expect(await whoIsOnCall(env.deps.db, a.tenantId, bs.id, new Date('2026-07-01T12:00:00Z'))).toBeNull();
    expect((await b.agent.get(scheduleUrl(b.tenantId, bs.id))).statusCode).toBe(200);
  });
});
