import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { WEEKDAY_KEYS } from '../../../contract/schedules.ts';
import { Agent, describeEachDatabase, type TestEnv } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { schedulesExist } from './schedules.repository.ts';
import { whoIsOnCall } from './schedules.service.ts';
import { canCreateOverride, canDeleteOverride } from './schedules.policy.ts';

const base = (tenantId: string) => `/api/tenants/${tenantId}/onCallSchedules`;
const url = (tenantId: string, id: string, rest = '') => `${base(tenantId)}/${id}${rest}`;

type ShiftBody = { startHour: number; endHour: number; primaryOnCall: string; secondaryOnCall?: string | null };
const everyDay = (...shifts: ShiftBody[]) => Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, shifts]));
const body = (primary: string, extra: Record<string, unknown> = {}) => ({
  name: 'Follow the sun',
  description: 'Nights and days',
  startTime: '2026-01-01',
  endTime: '2026-12-31',
  timeZone: 'America/New_York',
  rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: primary, secondaryOnCall: null }),
  ...extra,
});

async function create(agent: Agent, tenantId: string, b: Record<string, unknown>) {
  const res = await agent.post(base(tenantId), b);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.data;
}

/** An owner, an admin and a plain member of one tenant. */
async function team(env: TestEnv) {
  const owner = await registerOwner(env.app, { name: 'Olivia Owner' });
  const admin = await addMember(env.deps, env.app, owner.tenantId, 'admin');
  const user = await addMember(env.deps, env.app, owner.tenantId, 'user');
  return { owner, admin, user, tenantId: owner.tenantId };
}

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
    const s = await create(owner.agent, owner.tenantId, body(owner.userId));
    const p = owner.userId;
    const bodies: unknown[] = [
      null,
      [],
      'text',
      { name: 'x'.repeat(101) },
      { ...body(p), rotations: null },
      { ...body(p), rotations: [] },
      { ...body(p), rotations: { 0: 'all day' } },
      { ...body(p), rotations: { 0: [null] } },
      { ...body(p), rotations: { 0: [{ startHour: '0', endHour: '24', primaryOnCall: p }] } },
      { ...body(p), rotations: { 0: [{ startHour: 0.5, endHour: 24, primaryOnCall: p }] } },
      { ...body(p), rotations: { 0: [{ startHour: -1, endHour: 24, primaryOnCall: p }] } },
      { ...body(p), rotations: { 0: [{ startHour: 0, endHour: 24, primaryOnCall: 42 }] } },
      { ...body(p), rotations: { 0: Array.from({ length: 25 }, (_, h) => ({ startHour: h, endHour: h + 1, primaryOnCall: p })) } },
      { ...body(p), timeZone: '../../etc/passwd' },
      { ...body(p), timeZone: 42 },
      { ...body(p), startTime: '2026-01-01T00:00:00Z' },
      { ...body(p), endTime: 20261231 },
      { ...body(p), isDefault: 'yes' },
      { ...body(p), description: { html: '<b>' } },
    ];
    for (const b of bodies) {
      for (const res of [await owner.agent.post(base(owner.tenantId), b), await owner.agent.put(url(owner.tenantId, s.id), b)]) {
        expect(res.statusCode, JSON.stringify(b).slice(0, 80)).toBe(400);
        expect(res.data.error.code).toMatch(/validation_failed|bad_request/);
      }
    }
    for (const q of ['at=', 'at=2026-13-01T00:00:00Z', 'at=now', `at=${'9'.repeat(300)}`]) {
      expect((await owner.agent.get(`${url(owner.tenantId, s.id, '/onCall')}?${q}`)).statusCode, q).toBe(400);
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/onCall?${q}`)).statusCode, q).toBe(400);
    }
    expect((await owner.agent.get(`${url(owner.tenantId, s.id, '/timeline')}?from=soon`)).statusCode).toBe(400);
    for (const b of [null, {}, { replacedUserId: p, userId: 5, startsAt: 1, endsAt: true }, { replacedUserId: p, userId: 'x', startsAt: '2026-01-01', endsAt: '2026-01-02' }]) {
      expect((await owner.agent.post(url(owner.tenantId, s.id, '/overrides'), b)).statusCode).toBe(400);
    }
    expect((await owner.agent.get(base(owner.tenantId))).data.items).toHaveLength(1);
    expect((await owner.agent.get(url(owner.tenantId, s.id, '/overrides'))).data.items).toEqual([]);
  });


  it('answers 401 without a session on every endpoint, before looking at the body', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const s = await create(owner.agent, owner.tenantId, body(owner.userId));
    const anon = new Agent(app);
    const tid = owner.tenantId;
    for (const [method, path, b] of [
      ['GET', base(tid)],
      ['POST', base(tid), {}],
      ['GET', url(tid, s.id)],
      ['PUT', url(tid, s.id), {}],
      ['DELETE', url(tid, s.id)],
      ['GET', url(tid, s.id, '/onCall')],
      ['GET', url(tid, s.id, '/timeline')],
      ['GET', url(tid, s.id, '/overrides')],
      ['POST', url(tid, s.id, '/overrides'), {}],
      ['DELETE', url(tid, s.id, '/overrides/x')],
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
    const { owner, admin, tenantId } = await team(env);
    const rotations = everyDay(
      { startHour: 0, endHour: 8, primaryOnCall: admin.userId, secondaryOnCall: owner.userId },
      { startHour: 8, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: '' },
    );
    const res = await owner.agent.post(base(tenantId), { ...body(owner.userId), name: '  Follow the sun ', rotations, id: 'forged', tenantId: 'other', createdAt: '2000-01-01T00:00:00Z' });
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
    expect((await owner.agent.get(url(tenantId, s.id))).data).toEqual(s);
    expect((await owner.agent.get(base(tenantId))).data.items).toEqual([s]);

    const upd = await admin.agent.put(url(tenantId, s.id), body(admin.userId, { name: 'Renamed', description: '', timeZone: 'Europe/Berlin' }));
    expect(upd.statusCode).toBe(200);
    expect(upd.data).toMatchObject({ id: s.id, name: 'Renamed', description: null, timeZone: 'Europe/Berlin', createdAt: s.createdAt, createdBy: owner.userId });
    expect(upd.data.rotations['0']).toEqual([{ startHour: 0, endHour: 24, primaryOnCall: admin.userId, secondaryOnCall: null }]);

    expect((await admin.agent.delete(url(tenantId, s.id))).data).toEqual({ ok: true });
    expect((await owner.agent.get(url(tenantId, s.id))).data).toEqual({ error: { code: 'not_found', message: 'Schedule not found' } });
    expect((await owner.agent.get(base(tenantId))).data.items).toEqual([]);
  });

  describe('validation (spec section 5), on create and update', () => {
    const fullDay = (p: string) => [{ startHour: 0, endHour: 24, primaryOnCall: p }];
    const cases: Array<[string, (p: string) => Record<string, unknown>, string, string]> = [
      ['a missing name', (p) => ({ ...body(p), name: undefined }), 'name', 'Schedule name is required'],
      ['a blank name', (p) => body(p, { name: '   ' }), 'name', 'Schedule name is required'],
      ['a start date that is not a date', (p) => body(p, { startTime: 'next monday' }), 'startTime', 'Invalid date format'],
      ['an end date that does not exist', (p) => body(p, { endTime: '2026-02-30' }), 'endTime', 'Invalid date format'],
      ['a missing end date', (p) => ({ ...body(p), endTime: undefined }), 'endTime', 'Invalid date format'],
      ['an end date before the start', (p) => body(p, { startTime: '2026-05-01', endTime: '2026-04-30' }), 'endTime', 'End date must be after start date'],
      ['an end date equal to the start', (p) => body(p, { startTime: '2026-05-01', endTime: '2026-05-01' }), 'endTime', 'End date must be after start date'],
      ['a weekday without shifts', (p) => body(p, { rotations: { ...everyDay(...fullDay(p)), 4: [] } }), 'rotations.4', 'No shifts defined for Thursday'],
      ['a missing weekday', (p) => body(p, { rotations: { 0: fullDay(p), 1: fullDay(p) } }), 'rotations.2', 'No shifts defined for Tuesday'],
      [
        'a shift without primary',
        (p) => body(p, { rotations: { ...everyDay(...fullDay(p)), 0: [{ startHour: 0, endHour: 24, primaryOnCall: '', secondaryOnCall: p }] } }),
        'rotations.0.0.primaryOnCall',
        'Primary on-call is required for all shifts on Sunday',
      ],
      ['hours outside 0–24', (p) => body(p, { rotations: { ...everyDay(...fullDay(p)), 1: [{ startHour: 0, endHour: 25, primaryOnCall: p }] } }), 'rotations.1.0.endHour', 'Shift hours must be whole numbers from 0 to 24'],
      ['overlapping shifts', (p) => body(p, { rotations: { ...everyDay(...fullDay(p)), 1: [...fullDay(p), { startHour: 8, endHour: 16, primaryOnCall: p }] } }), 'rotations.1.1.startHour', 'Shifts overlap on Monday'],
      ['an unknown time zone', (p) => body(p, { timeZone: 'Europe/Atlantis' }), 'timeZone', 'Choose a valid time zone'],
      ['rotations that are not an object', (p) => body(p, { rotations: 'daily' }), 'rotations', 'Rotations must list the shifts of each weekday 0 (Sunday) to 6 (Saturday)'],
      ['a person who is not a member', () => body('not-a-member'), 'rotations.0.0.primaryOnCall', 'This person is not a member of this organization'],
    ];
    for (const [what, make, field, message] of cases) {
      it(`refuses ${what} with '${message}'`, async () => {
        const { app } = t();
        const owner = await registerOwner(app);
        const existing = await create(owner.agent, owner.tenantId, body(owner.userId, { name: 'Existing' }));
        for (const res of [await owner.agent.post(base(owner.tenantId), make(owner.userId)), await owner.agent.put(url(owner.tenantId, existing.id), make(owner.userId))]) {
          expect(res.statusCode).toBe(400);
          expect(res.data.error).toMatchObject({ code: 'validation_failed', message });
          expect(res.data.error.fields[field]).toBe(message);
        }
        const list = await owner.agent.get(base(owner.tenantId));
        expect(list.data.items.map((s: { name: string }) => s.name)).toEqual(['Existing']);
      });
    }

    it('reports every failing rule, the spec’s first one as the message', async () => {
      const { app } = t();
      const owner = await registerOwner(app);
      const res = await owner.agent.post(base(owner.tenantId), { name: '', startTime: '2026-05-01', endTime: '2026-04-01', rotations: { 0: [{ startHour: 0, endHour: 24 }] } });
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
    const { owner, tenantId } = await team(env);
    const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
    const otherDefault = await create(other.agent, other.tenantId, body(other.userId, { isDefault: true }));
    const a = await create(owner.agent, tenantId, body(owner.userId, { name: 'A', isDefault: true }));
    const b = await create(owner.agent, tenantId, body(owner.userId, { name: 'B', isDefault: true }));
    const defaults = async () => (await owner.agent.get(base(tenantId))).data.items.filter((s: { isDefault: boolean }) => s.isDefault).map((s: { name: string }) => s.name);
    expect(await defaults()).toEqual(['B']);
    // Re-saving the default keeps it; editing A into the default clears B.
    expect((await owner.agent.put(url(tenantId, b.id), body(owner.userId, { name: 'B', isDefault: true }))).data.isDefault).toBe(true);
    expect(await defaults()).toEqual(['B']);
    await owner.agent.put(url(tenantId, a.id), body(owner.userId, { name: 'A', isDefault: true }));
    expect(await defaults()).toEqual(['A']);
    // Ten concurrent saves of a default, new and edited: exactly one default remains, and every save succeeded.
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => owner.agent.post(base(tenantId), body(owner.userId, { name: `C${i}`, isDefault: true }))),
      ...[a, b].flatMap((s) => [owner.agent.put(url(tenantId, s.id), body(owner.userId, { name: `Edited ${s.id}`, isDefault: true }))]),
    ]);
    expect(results.map((r) => r.statusCode).every((c) => c === 200 || c === 201)).toBe(true);
    expect((await defaults()).length).toBe(1);
    // The other tenant's default was never touched.
    expect((await other.agent.get(url(other.tenantId, otherDefault.id))).data.isDefault).toBe(true);
  });

  it('lets owners and admins write and every member read (403 for a member’s writes)', async () => {
    const env = t();
    const { owner, user, tenantId } = await team(env);
    const s = await create(owner.agent, tenantId, body(owner.userId));
    expect((await user.agent.get(base(tenantId))).data.items).toHaveLength(1);
    expect((await user.agent.get(url(tenantId, s.id))).statusCode).toBe(200);
    expect((await user.agent.get(url(tenantId, s.id, '/onCall'))).statusCode).toBe(200);
    expect((await user.agent.get(url(tenantId, s.id, '/timeline'))).statusCode).toBe(200);
    expect((await user.agent.get(`/api/tenants/${tenantId}/onCallMembers`)).data.items.map((m: { displayName: string }) => m.displayName)).toContain('Olivia Owner');
    const forbidden = { error: { code: 'forbidden', message: 'Only owners and admins can change on-call schedules' } };
    expect((await user.agent.post(base(tenantId), body(user.userId))).data).toEqual(forbidden);
    expect((await user.agent.put(url(tenantId, s.id), body(user.userId))).data).toEqual(forbidden);
    const del = await user.agent.delete(url(tenantId, s.id));
    expect(del.statusCode).toBe(403);
    expect((await owner.agent.get(url(tenantId, s.id))).statusCode).toBe(200);
  });

  it('answers 404 for another tenant’s schedules and overrides exactly like missing ones', async () => {
    const env = t();
    const a = await registerOwner(env.app, { tenantName: 'Tenant A' });
    const b = await registerOwner(env.app, { tenantName: 'Tenant B' });
    const bs = await create(b.agent, b.tenantId, body(b.userId));
    const bo = await b.agent.post(url(b.tenantId, bs.id, '/overrides'), { replacedUserId: b.userId, userId: b.userId + 'x', startsAt: '2026-07-01T00:00:00Z', endsAt: '2026-07-02T00:00:00Z' });
    expect(bo.statusCode).toBe(400); // not a member: no override was made; make a real one below
    const bMember = await addMember(env.deps, env.app, b.tenantId, 'user');
    const ov = await b.agent.post(url(b.tenantId, bs.id, '/overrides'), { replacedUserId: b.userId, userId: bMember.userId, startsAt: '2026-07-01T00:00:00Z', endsAt: '2026-07-02T00:00:00Z' });
    expect(ov.statusCode).toBe(201);
    const notFound = { error: { code: 'not_found', message: 'Schedule not found' } };
    for (const res of [
      await a.agent.get(url(a.tenantId, bs.id)),
      await a.agent.put(url(a.tenantId, bs.id), body(a.userId)),
      await a.agent.delete(url(a.tenantId, bs.id)),
      await a.agent.get(url(a.tenantId, bs.id, '/onCall')),
      await a.agent.get(url(a.tenantId, bs.id, '/timeline')),
      await a.agent.get(url(a.tenantId, bs.id, '/overrides')),
      await a.agent.post(url(a.tenantId, bs.id, '/overrides'), { replacedUserId: a.userId, userId: a.userId + 'x', startsAt: '2026-07-01T00:00:00Z', endsAt: '2026-07-02T00:00:00Z' }),
      await a.agent.get(url(a.tenantId, 'no-such-schedule')),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual(notFound);
    }
    expect((await a.agent.delete(url(a.tenantId, bs.id, `/overrides/${ov.data.id}`))).statusCode).toBe(404);
    // Through b's tenant id, a is not a member: the tenant itself is not there.
    for (const path of [base(b.tenantId), url(b.tenantId, bs.id), `/api/tenants/${b.tenantId}/onCall`, `/api/tenants/${b.tenantId}/onCallMembers`, `/api/tenants/${b.tenantId}/myOnCall`]) {
      const res = await a.agent.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.data).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    }
    // The engine's functions are scoped the same way.
    expect(await whoIsOnCall(env.deps.db, a.tenantId, bs.id, new Date('2026-07-01T12:00:00Z'))).toBeNull();
    expect(await schedulesExist(env.deps.db, a.tenantId, [bs.id])).toBe(false);
    expect(await schedulesExist(env.deps.db, b.tenantId, [bs.id, bs.id])).toBe(true);
    expect(await schedulesExist(env.deps.db, b.tenantId, [])).toBe(true);
    expect((await b.agent.get(url(b.tenantId, bs.id))).statusCode).toBe(200);
  });

  it('says who is on call at a moment, per schedule and for the tenant, with the next handover', async () => {
    const env = t();
    const { owner, admin, user, tenantId } = await team(env);
    // Berlin, 2026-10-25 is the night the clocks go back: the 1–9 shift lasts 9 hours.
    const s = await create(
      owner.agent,
      tenantId,
      body(owner.userId, {
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
    const at = (iso: string) => owner.agent.get(`${url(tenantId, s.id, '/onCall')}?at=${encodeURIComponent(iso)}`);
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

    const bad = await owner.agent.get(`${url(tenantId, s.id, '/onCall')}?at=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error.fields.at).toBe('at must be an ISO-8601 time');

    await create(owner.agent, tenantId, body(owner.userId, { name: 'All day', isDefault: true }));
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
    const { owner, admin, user, tenantId } = await team(env);
    const other = await addMember(env.deps, env.app, tenantId, 'user');
    const s = await create(owner.agent, tenantId, body(user.userId, { timeZone: 'UTC', endTime: '2027-12-31' }));
    const ovUrl = url(tenantId, s.id, '/overrides');
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

    const at = async (iso: string) => (await user.agent.get(`${url(tenantId, s.id, '/onCall')}?at=${iso}`)).data;
    expect(await at('2026-12-31T23:00:00Z')).toMatchObject({ primary: user.userId, shiftEndsAt: '2027-01-01T00:00:00.000Z' });
    expect(await at('2027-01-01T01:00:00Z')).toMatchObject({ primary: other.userId, shiftEndsAt: '2027-01-01T05:00:00.000Z' });
    expect(await at('2027-01-01T06:00:00Z')).toMatchObject({ primary: admin.userId, shiftEndsAt: '2027-01-01T08:00:00.000Z' });
    expect(await at('2027-01-02T00:00:00Z')).toMatchObject({ primary: user.userId });

    // The timeline shows them.
    const tl = (await user.agent.get(`${url(tenantId, s.id, '/timeline')}?from=2027-01-01T12:00:00Z`)).data;
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
    const { owner, tenantId } = await team(env);
    const rotations = everyDay({ startHour: 0, endHour: 24, primaryOnCall: owner.userId });
    rotations['6'] = [{ startHour: 8, endHour: 24, primaryOnCall: owner.userId }];
    const s = await create(owner.agent, tenantId, body(owner.userId, { timeZone: 'America/New_York', rotations }));
    const tl = (await owner.agent.get(`${url(tenantId, s.id, '/timeline')}?from=2026-07-01T12:00:00Z`)).data;
    expect(tl.from).toBe('2026-07-01T04:00:00.000Z');
    expect(tl.gaps).toEqual([
      { start: '2026-07-04T04:00:00.000Z', end: '2026-07-04T12:00:00.000Z', label: 'No one on call Sat 12 AM – 8 AM' },
      { start: '2026-07-11T04:00:00.000Z', end: '2026-07-11T12:00:00.000Z', label: 'No one on call Sat 12 AM – 8 AM' },
    ]);
  });

  it('shows a removed member’s shifts as theirs until edited, and refuses to save them again', async () => {
    const env = t();
    const { owner, user, tenantId } = await team(env);
    const s = await create(owner.agent, tenantId, body(user.userId, { timeZone: 'UTC' }));
    await env.deps.db.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('user_id', '=', user.userId).execute();
    const members = (await owner.agent.get(`/api/tenants/${tenantId}/onCallMembers`)).data.items.map((m: { userId: string }) => m.userId);
    expect(members).not.toContain(user.userId);
    expect((await owner.agent.get(url(tenantId, s.id))).data.rotations['0'][0].primaryOnCall).toBe(user.userId);
    // The card still names them (as 'Unknown User'), but the engine never pages someone who has left.
    expect((await owner.agent.get(`${url(tenantId, s.id, '/onCall')}?at=2026-06-01T12:00:00Z`)).data.primary).toBe(user.userId);
    expect(await whoIsOnCall(env.deps.db, tenantId, s.id, new Date('2026-06-01T12:00:00Z'))).toEqual({ primary: null, secondary: null, shiftEndsAt: '2026-06-02T00:00:00.000Z' });
    const res = await owner.agent.put(url(tenantId, s.id), body(user.userId));
    expect(res.statusCode).toBe(400);
    expect(res.data.error.fields['rotations.0.0.primaryOnCall']).toBe('This person is not a member of this organization');
  });

  it('shows my next shifts and serves them as a calendar feed at a secret URL that can be renewed and revoked', async () => {
    const env = t();
    const { owner, admin, tenantId } = await team(env);
    const today = new Date();
    const d = (days: number) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);
    const s = await create(
      owner.agent,
      tenantId,
      body(owner.userId, {
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
    const ov = await owner.agent.post(url(tenantId, s.id, '/overrides'), {
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
