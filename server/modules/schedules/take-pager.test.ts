import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHIFT_SWAP_MSG } from '../../../contract/shift-swaps.ts';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { createSchedule, scheduleBody, scheduleUrl } from '../../test/schedules.ts';

const HOUR = 3600_000;

for (const db of testDatabases()) {
  describe(`take the pager now [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let fake: ReturnType<typeof fakeTransports>;
    let nowMs = Date.now();
    const clock = () => new Date(nowMs);

    beforeAll(async () => {
      fake = fakeTransports();
      env = await startTestApp(db, {}, undefined, { clock, transports: fake.transports });
    });
    afterAll(async () => env?.close());
    beforeEach(() => {
      nowMs = Math.floor(Date.now() / 60_000) * 60_000;
    });

    const iso = (ms: number) => new Date(ms).toISOString();
    const mailsTo = (email: string) => fake.sent.email.filter((m) => m.to === email);
    const optionsUrl = (tenantId: string) => `/api/tenants/${tenantId}/pagerOptions`;

    /** Owner, admin, R on call all day (UTC) on Ops, and members M (not on call) and N. */
    async function setup() {
      const owner = await registerOwner(env.app, { name: 'Olive Owner' });
      const add = (role: 'admin' | 'user' = 'user') => addMember(env.deps, env.app, owner.tenantId, role);
      const [admin, r, m, n] = [await add('admin'), await add(), await add(), await add()];
      const schedule = await createSchedule(owner.agent, owner.tenantId, scheduleBody(r.userId, { name: 'Ops', timeZone: 'UTC', startTime: '2026-01-01', endTime: null }));
      fake.sent.email.length = 0;
      return { owner, admin, r, m, n, tenantId: owner.tenantId, schedule };
    }
    const primaryAt = async (agent: Agent, tenantId: string, id: string, ms: number) =>
      (await agent.get(`${scheduleUrl(tenantId, id, '/onCall')}?at=${encodeURIComponent(iso(ms))}`)).data.primary;

    it('puts a member not on call in the primary’s place from now for N hours and tells the person replaced', async () => {
      const { r, m, tenantId, schedule, owner } = await setup();
      const offered = await m.agent.get(optionsUrl(tenantId));
      expect(offered.statusCode, offered.body).toBe(200);
      expect(offered.data).toEqual({ items: [{ scheduleId: schedule.id, scheduleName: 'Ops', participantsOnly: false, primary: r.userId, mayTake: true, reason: null }], canManage: false });

      const took = await m.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 3 });
      expect(took.statusCode, took.body).toBe(201);
      expect(took.data).toEqual({ scheduleId: schedule.id, overrides: [{ id: expect.any(String), replacedUserId: r.userId, userId: m.userId, startsAt: iso(nowMs), endsAt: iso(nowMs + 3 * HOUR) }] });
      expect(await primaryAt(owner.agent, tenantId, schedule.id, nowMs + HOUR)).toBe(m.userId);
      expect(await primaryAt(owner.agent, tenantId, schedule.id, nowMs + 3 * HOUR)).toBe(r.userId);

      await env.app.jobs.worker.runDue();
      const told = mailsTo(r.email);
      expect(told.map((x) => x.subject)).toEqual(['Olivia Owner took your pager: Ops']);
      expect(told[0]!.text).toContain('You are not paged on it meanwhile');

      // Now on call: the option says why not, and taking again is refused.
      expect((await m.agent.get(optionsUrl(tenantId))).data.items[0]).toMatchObject({ primary: m.userId, mayTake: false, reason: SHIFT_SWAP_MSG.alreadyOnCall });
      const again = await m.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 1 });
      expect(again.statusCode).toBe(409);
      expect(again.data.error.message).toBe(SHIFT_SWAP_MSG.alreadyOnCall);
    });

    it('crosses a handover with one override per primary, each of them told', async () => {
      const { owner, r, m, n, tenantId, schedule } = await setup();
      // N covers for R from two hours from now (an override made by the owner): the pager changes hands then.
      const cover = await owner.agent.post(scheduleUrl(tenantId, schedule.id, '/overrides'), { replacedUserId: r.userId, userId: n.userId, startsAt: iso(nowMs + 2 * HOUR), endsAt: iso(nowMs + 10 * HOUR) });
      expect(cover.statusCode, cover.body).toBe(201);
      const took = await m.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 4 });
      expect(took.statusCode, took.body).toBe(201);
      expect(took.data.overrides.map((o: { replacedUserId: string }) => o.replacedUserId)).toEqual([r.userId, n.userId]);
      expect(await primaryAt(owner.agent, tenantId, schedule.id, nowMs + 3 * HOUR + 1)).toBe(m.userId);
      await env.app.jobs.worker.runDue();
      expect(mailsTo(r.email)).toHaveLength(1);
      expect(mailsTo(n.email)).toHaveLength(1);
    });

    it('lets owners and admins keep the pager to participants; enforces input, roles and tenants', async () => {
      const { owner, admin, r, m, n, tenantId, schedule } = await setup();
      const settingUrl = scheduleUrl(tenantId, schedule.id, '/pagerSetting');
      const forbidden = await m.agent.put(settingUrl, { participantsOnly: true });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.data.error.message).toBe(SHIFT_SWAP_MSG.settingForbidden);
      expect((await admin.agent.put(settingUrl, { participantsOnly: 'yes' })).data.error.fields.participantsOnly).toBe('Must be true or false');
      const set = await admin.agent.put(settingUrl, { participantsOnly: true });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.data).toEqual({ scheduleId: schedule.id, participantsOnly: true });
      expect((await owner.agent.get(optionsUrl(tenantId))).data).toMatchObject({ canManage: true, items: [{ participantsOnly: true, mayTake: false, reason: SHIFT_SWAP_MSG.participantsOnly }] });

      const refused = await m.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 2 });
      expect(refused.statusCode).toBe(403);
      expect(refused.data.error.message).toBe(SHIFT_SWAP_MSG.participantsOnly);
      expect(await primaryAt(owner.agent, tenantId, schedule.id, nowMs + HOUR)).toBe(r.userId);
      // N becomes a participant (a rotation layer that starts next year): N may, M still may not.
      const withLayer = await owner.agent.put(scheduleUrl(tenantId, schedule.id), {
        ...scheduleBody(r.userId, { name: 'Ops', timeZone: 'UTC', startTime: '2026-01-01', endTime: null }),
        layers: [{ name: 'Later', participants: [n.userId], start: '2027-06-01T00:00:00Z', shiftLength: { unit: 'weeks', count: 1 } }],
      });
      expect(withLayer.statusCode, withLayer.body).toBe(200);
      expect((await n.agent.get(optionsUrl(tenantId))).data.items[0]).toMatchObject({ participantsOnly: true, mayTake: true, reason: null });
      const byParticipant = await n.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 1 });
      expect(byParticipant.statusCode, byParticipant.body).toBe(201);
      expect(await primaryAt(owner.agent, tenantId, schedule.id, nowMs + HOUR / 2)).toBe(n.userId);
      expect((await m.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 2 })).statusCode).toBe(403);
      // Opened again: M may.
      expect((await owner.agent.put(settingUrl, { participantsOnly: false })).statusCode).toBe(200);
      expect((await m.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 2 })).statusCode).toBe(201);

      for (const hours of [0, 73, 1.5, 'many']) {
        const bad = await owner.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours });
        expect(bad.statusCode, String(hours)).toBe(400);
        expect(bad.data.error.fields.hours).toBe(SHIFT_SWAP_MSG.hoursInvalid);
      }

      expect((await new Agent(env.app).post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 1 })).statusCode).toBe(401);
      const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
      const missing = await owner.agent.post(scheduleUrl(tenantId, 'no-such-schedule', '/takePager'), { hours: 1 });
      expect(missing.statusCode).toBe(404);
      for (const res of [
        await other.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 1 }),
        await other.agent.put(settingUrl, { participantsOnly: true }),
        await other.agent.get(optionsUrl(tenantId)),
      ]) {
        expect(res.statusCode).toBe(404);
      }
      const theirs = await createSchedule(other.agent, other.tenantId, scheduleBody(other.userId, { timeZone: 'UTC', endTime: null }));
      const foreign = await owner.agent.post(scheduleUrl(tenantId, theirs.id, '/takePager'), { hours: 1 });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.data).toEqual(missing.data);
      expect((await owner.agent.put(scheduleUrl(tenantId, theirs.id, '/pagerSetting'), { participantsOnly: true })).statusCode).toBe(404);
    });
  });
}
