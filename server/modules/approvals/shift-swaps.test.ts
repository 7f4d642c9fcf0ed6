import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPROVAL_MSG } from '../../../contract/approvals.ts';
import { SHIFT_SWAP_MSG } from '../../../contract/shift-swaps.ts';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { createSchedule, everyDay, scheduleBody, scheduleUrl } from '../../test/schedules.ts';

const HOUR = 3600_000;

for (const db of testDatabases()) {
  describe(`shift swaps through approvals [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let fake: ReturnType<typeof fakeTransports>;
    let nowMs = Date.now();
    const clock = () => new Date(nowMs);
    const runJobs = () => env.app.jobs.worker.runDue();

    beforeAll(async () => {
      fake = fakeTransports();
      env = await startTestApp(db, {}, undefined, { clock, transports: fake.transports });
    });
    afterAll(async () => env?.close());
    beforeEach(() => {
      // Whole minutes: the times compared below are as the API answers them.
      nowMs = Math.floor(Date.now() / 60_000) * 60_000;
    });

    const swapsUrl = (tenantId: string) => `/api/tenants/${tenantId}/shiftSwaps`;
    const requestUrl = (tenantId: string, id: string, action = '') => `/api/tenants/${tenantId}/approvalRequests/${id}${action ? `/${action}` : ''}`;
    const at = (ms: number) => new Date(ms).toISOString();
    const mailsTo = (email: string) => fake.sent.email.filter((m) => m.to === email);

    /** A tenant: owner, an admin, requester R on call all day every day (UTC, no end), colleagues T and U, and Ops. */
    async function setup() {
      const owner = await registerOwner(env.app, { name: 'Olive Owner' });
      const add = (role: 'admin' | 'user' = 'user') => addMember(env.deps, env.app, owner.tenantId, role);
      const [admin, r, taker, u] = [await add('admin'), await add(), await add(), await add()];
      const schedule = await createSchedule(owner.agent, owner.tenantId, scheduleBody(r.userId, { name: 'Ops', timeZone: 'UTC', startTime: '2026-01-01', endTime: null }));
      fake.sent.email.length = 0;
      return { owner, admin, r, taker, u, tenantId: owner.tenantId, schedule };
    }
    const onCallAt = async (agent: Agent, tenantId: string, scheduleId: string, ms: number) =>
      (await agent.get(`${scheduleUrl(tenantId, scheduleId, '/onCall')}?at=${encodeURIComponent(at(ms))}`)).data.primary;

    it('approved by the person asked: the override is made and who is on call answers them; both sides saw it pending', async () => {
      const { r, taker, tenantId, schedule, owner } = await setup();
      const body = { scheduleId: schedule.id, takerId: taker.userId, startsAt: at(nowMs + 2 * HOUR), endsAt: at(nowMs + 6 * HOUR), note: 'Dentist' };
      const made = await r.agent.post(swapsUrl(tenantId), body);
      expect(made.statusCode, made.body).toBe(201);
      expect(made.data).toMatchObject({
        scheduleId: schedule.id,
        scheduleName: 'Ops',
        role: 'primary',
        requester: { id: r.userId },
        taker: { id: taker.userId },
        startsAt: body.startsAt,
        endsAt: body.endsAt,
        note: 'Dentist',
        status: 'pending',
        currentLevel: 0,
        levels: 1,
        overrideId: null,
        can: { approve: false, reject: false, cancel: true },
      });
      // The first level waits at most until the stretch ends.
      expect(made.data.expiresAt).toBe(body.endsAt);
      const id = made.data.requestId;

      // Both sides see it pending, in My on-call's list and in the approvals pages.
      const mine = await taker.agent.get(swapsUrl(tenantId));
      expect(mine.data.items.map((s: { requestId: string; can: object }) => [s.requestId, s.can])).toEqual([[id, { approve: true, reject: true, cancel: false, delegate: false }]]);
      expect((await r.agent.get(swapsUrl(tenantId))).data.items.map((s: { requestId: string }) => s.requestId)).toEqual([id]);
      const pending = await taker.agent.get(`/api/tenants/${tenantId}/approvalRequests?view=pending`);
      expect(pending.data.items.map((i: { id: string; type: string }) => [i.id, i.type])).toEqual([[id, 'shift_swap']]);
      expect((await r.agent.get(`/api/tenants/${tenantId}/approvalRequests?view=mine`)).data.items[0]).toMatchObject({ id, type: 'shift_swap', title: 'Shift swap: Ops' });
      // The default policy the tenant got: one level, the person asked in it; owners see it among the policies.
      const policies = (await owner.agent.get(`/api/tenants/${tenantId}/approvalPolicies`)).data.items;
      expect(policies.map((p: { type: string; name: string }) => [p.type, p.name])).toEqual([['shift_swap', SHIFT_SWAP_MSG.defaultPolicyName]]);

      // The person asked is told.
      await runJobs();
      expect(mailsTo(taker.email).map((m) => m.subject)).toEqual(['Approval needed: Shift swap: Ops']);

      const ok = await taker.agent.post(requestUrl(tenantId, id, 'approve'), {});
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.data.status).toBe('approved');
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 3 * HOUR)).toBe(taker.userId);
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + HOUR)).toBe(r.userId);
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 7 * HOUR)).toBe(r.userId);
      const overrides = (await owner.agent.get(scheduleUrl(tenantId, schedule.id, '/overrides'))).data.items;
      expect(overrides).toMatchObject([{ replacedUserId: r.userId, userId: taker.userId, startsAt: body.startsAt, endsAt: body.endsAt, note: 'Dentist' }]);
      const after = (await r.agent.get(swapsUrl(tenantId))).data.items[0];
      expect(after).toMatchObject({ status: 'approved', overrideId: overrides[0].id });
      // The taker's My on-call shows the shift as theirs through an override.
      expect((await taker.agent.get(`/api/tenants/${tenantId}/myOnCall`)).data.shifts).toMatchObject([{ scheduleId: schedule.id, start: body.startsAt, end: body.endsAt, override: true }]);

      // The requester is told.
      await runJobs();
      expect(mailsTo(r.email).map((m) => m.subject)).toEqual(['Your request was approved: Shift swap: Ops']);
    });

    it('rejected or expired: nothing changes on the schedule and the requester is told', async () => {
      const { r, taker, u, tenantId, schedule, owner } = await setup();
      const ask = async (takerAgent: typeof taker, from: number, to: number) => {
        const res = await r.agent.post(swapsUrl(tenantId), { scheduleId: schedule.id, takerId: takerAgent.userId, startsAt: at(from), endsAt: at(to) });
        expect(res.statusCode, res.body).toBe(201);
        return res.data.requestId as string;
      };
      const first = await ask(taker, nowMs + HOUR, nowMs + 3 * HOUR);
      const no = await taker.agent.post(requestUrl(tenantId, first, 'reject'), { reason: 'Cannot, sorry' });
      expect(no.statusCode, no.body).toBe(200);
      expect(no.data.status).toBe('rejected');
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 2 * HOUR)).toBe(r.userId);
      await runJobs();
      const told = mailsTo(r.email);
      expect(told.map((m) => m.subject)).toEqual(['Your request was rejected: Shift swap: Ops']);
      expect(told[0]!.text).toContain('Cannot, sorry');
      expect((await r.agent.get(swapsUrl(tenantId))).data.items.find((s: { requestId: string }) => s.requestId === first)).toMatchObject({ status: 'rejected', overrideId: null });

      // Nobody answers before the stretch ends: the request expires, nothing changes, the requester is told.
      fake.sent.email.length = 0;
      const second = await ask(u, nowMs + HOUR, nowMs + 2 * HOUR);
      nowMs += 2 * HOUR + 1000;
      await runJobs();
      const expired = await r.agent.get(requestUrl(tenantId, second));
      expect(expired.data.status).toBe('rejected');
      expect(expired.data.history.map((h: { action: string }) => h.action)).toEqual(['created', 'expired']);
      const told2 = mailsTo(r.email);
      expect(told2.map((m) => m.subject)).toEqual(['Your request was rejected: Shift swap: Ops']);
      expect(told2[0]!.text).toContain(APPROVAL_MSG.expiredComment);
      expect((await owner.agent.get(scheduleUrl(tenantId, schedule.id, '/overrides'))).data.items).toEqual([]);
      // Too late to approve now: the request is no longer pending.
      expect((await u.agent.post(requestUrl(tenantId, second, 'approve'), {})).statusCode).toBe(409);
    });

    it("goes on to an admin when the tenant's shift swap policy has a second level", async () => {
      const { r, taker, admin, owner, tenantId, schedule } = await setup();
      const policy = await owner.agent.post(`/api/tenants/${tenantId}/approvalPolicies`, {
        name: 'Swaps with sign-off',
        description: 'Colleague, then an admin',
        type: 'shift_swap',
        levels: [
          { level: 'manager', approvers: [owner.userId], timeToExpire: 24 },
          { level: 'director', approvers: [admin.userId], timeToExpire: 24 },
        ],
      });
      expect(policy.statusCode, policy.body).toBe(201);
      const made = await r.agent.post(swapsUrl(tenantId), { scheduleId: schedule.id, takerId: taker.userId, startsAt: at(nowMs + HOUR), endsAt: at(nowMs + 4 * HOUR) });
      expect(made.statusCode, made.body).toBe(201);
      const id = made.data.requestId;
      // The owner named at level 1 is not asked: the person asked decides it.
      expect((await owner.agent.post(requestUrl(tenantId, id, 'approve'), {})).statusCode).toBe(403);
      expect((await taker.agent.post(requestUrl(tenantId, id, 'approve'), {})).data).toMatchObject({ status: 'pending', currentLevel: 1 });
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 2 * HOUR)).toBe(r.userId);
      expect((await admin.agent.post(requestUrl(tenantId, id, 'approve'), {})).data.status).toBe('approved');
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 2 * HOUR)).toBe(taker.userId);
    });

    it('swaps a shift the requester holds through an earlier override: the new override wins for that time', async () => {
      const { owner, r, taker, u, tenantId, schedule } = await setup();
      // U covers for R for ten hours (added by the owner); U then asks T to take four of them.
      const cover = await owner.agent.post(scheduleUrl(tenantId, schedule.id, '/overrides'), { replacedUserId: r.userId, userId: u.userId, startsAt: at(nowMs), endsAt: at(nowMs + 10 * HOUR) });
      expect(cover.statusCode, cover.body).toBe(201);
      const made = await u.agent.post(swapsUrl(tenantId), { scheduleId: schedule.id, takerId: taker.userId, startsAt: at(nowMs + 2 * HOUR), endsAt: at(nowMs + 6 * HOUR) });
      expect(made.statusCode, made.body).toBe(201);
      expect((await taker.agent.post(requestUrl(tenantId, made.data.requestId, 'approve'), {})).data.status).toBe('approved');
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + HOUR)).toBe(u.userId);
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 3 * HOUR)).toBe(taker.userId);
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 7 * HOUR)).toBe(u.userId);
      expect(await onCallAt(owner.agent, tenantId, schedule.id, nowMs + 11 * HOUR)).toBe(r.userId);
    });

    it('enforces who may ask whom, for which time, with field messages; another tenant answers 404', async () => {
      const { r, taker, u, tenantId, schedule, owner } = await setup();
      const base = { scheduleId: schedule.id, takerId: taker.userId, startsAt: at(nowMs + HOUR), endsAt: at(nowMs + 3 * HOUR) };
      const stranger = await registerOwner(env.app, { tenantName: 'Elsewhere' });
      const cases: Array<[Agent, Record<string, unknown>, string, string]> = [
        [r.agent, { ...base, takerId: '' }, 'takerId', SHIFT_SWAP_MSG.takerRequired],
        [r.agent, { ...base, startsAt: 'soon' }, 'startsAt', SHIFT_SWAP_MSG.startInvalid],
        [r.agent, { ...base, endsAt: base.startsAt }, 'endsAt', SHIFT_SWAP_MSG.endAfterStart],
        [r.agent, { ...base, endsAt: at(nowMs + 100 * 24 * HOUR) }, 'endsAt', SHIFT_SWAP_MSG.tooLong],
        [r.agent, { ...base, startsAt: at(nowMs - 3 * HOUR), endsAt: at(nowMs - HOUR) }, 'endsAt', SHIFT_SWAP_MSG.over],
        [r.agent, { ...base, takerId: r.userId }, 'takerId', SHIFT_SWAP_MSG.takerSelf],
        [r.agent, { ...base, takerId: stranger.userId }, 'takerId', SHIFT_SWAP_MSG.takerNotMember],
        // T holds no shift on Ops: they cannot give one away.
        [taker.agent, { ...base, takerId: u.userId }, 'startsAt', SHIFT_SWAP_MSG.notYourShift],
      ];
      for (const [agent, body, field, message] of cases) {
        const res = await agent.post(swapsUrl(tenantId), body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.data.error.fields[field], res.body).toBe(message);
      }
      // The request form cannot make a swap: it names no shift.
      const generic = await r.agent.post(`/api/tenants/${tenantId}/approvalRequests`, { title: 't', description: 'd', type: 'shift_swap' });
      expect(generic.statusCode).toBe(400);
      expect(generic.data.error.fields.type).toBe(APPROVAL_MSG.swapFromMyOnCall);

      // Overlapping a pending swap of mine: refused until that one is decided or cancelled.
      const first = await r.agent.post(swapsUrl(tenantId), base);
      expect(first.statusCode, first.body).toBe(201);
      const twice = await r.agent.post(swapsUrl(tenantId), { ...base, takerId: u.userId, startsAt: at(nowMs + 2 * HOUR), endsAt: at(nowMs + 5 * HOUR) });
      expect(twice.statusCode).toBe(409);
      expect(twice.data.error.fields.startsAt).toBe(SHIFT_SWAP_MSG.overlapping);
      expect((await r.agent.post(requestUrl(tenantId, first.data.requestId, 'cancel'))).data.status).toBe('cancelled');
      expect((await r.agent.post(swapsUrl(tenantId), { ...base, takerId: u.userId })).statusCode).toBe(201);
      // Two overlapping asks at once: exactly one is made.
      const later = { ...base, takerId: u.userId, startsAt: at(nowMs + 20 * HOUR), endsAt: at(nowMs + 22 * HOUR) };
      const both = await Promise.all([r.agent.post(swapsUrl(tenantId), later), r.agent.post(swapsUrl(tenantId), { ...later, takerId: taker.userId })]);
      expect(both.map((x) => x.statusCode).sort()).toEqual([201, 409]);
      // A person already on call there meanwhile cannot be asked (the owner puts U on as secondary).
      const withSecondary = await owner.agent.put(scheduleUrl(tenantId, schedule.id), {
        ...scheduleBody(r.userId, { name: 'Ops', timeZone: 'UTC', startTime: '2026-01-01', endTime: null }),
        rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: r.userId, secondaryOnCall: taker.userId }),
      });
      expect(withSecondary.statusCode, withSecondary.body).toBe(200);
      const busy = await r.agent.post(swapsUrl(tenantId), { ...base, startsAt: at(nowMs + 10 * HOUR), endsAt: at(nowMs + 11 * HOUR) });
      expect(busy.data.error.fields.takerId).toBe(SHIFT_SWAP_MSG.takerOnCall);

      // No session: 401. Another tenant's schedule, or another tenant's URL: 404 like a missing one.
      expect((await new Agent(env.app).post(swapsUrl(tenantId), base)).statusCode).toBe(401);
      expect((await new Agent(env.app).get(swapsUrl(tenantId))).statusCode).toBe(401);
      const theirs = await createSchedule(stranger.agent, stranger.tenantId, scheduleBody(stranger.userId, { timeZone: 'UTC', endTime: null }));
      const missing = await r.agent.post(swapsUrl(tenantId), { ...base, scheduleId: 'no-such-schedule' });
      expect(missing.statusCode).toBe(404);
      const foreign = await r.agent.post(swapsUrl(tenantId), { ...base, scheduleId: theirs.id });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.data).toEqual(missing.data);
      expect((await stranger.agent.get(swapsUrl(tenantId))).statusCode).toBe(404);
      expect((await stranger.agent.post(swapsUrl(tenantId), { ...base, scheduleId: theirs.id })).statusCode).toBe(404);
      expect((await stranger.agent.get(requestUrl(tenantId, first.data.requestId))).statusCode).toBe(404);
    });
  });
}
