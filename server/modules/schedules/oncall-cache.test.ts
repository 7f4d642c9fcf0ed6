import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestApp, testDatabases } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { createSchedule, scheduleBody, scheduleUrl } from '../../test/schedules.ts';
import type { DB } from '../../db/database.ts';
import { whoIsOnCall } from './schedules.service.ts';

const HOUR = 3600_000;

// Issue 27's speed goal: who is on call is read from a per-tenant cache, forgotten on every instance by any write
// that changes the answer; another tenant's schedule is never served from it.
for (const db of testDatabases()) {
  describe(`who is on call from memory [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    const nowMs = Math.floor(Date.now() / 60_000) * 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();

    beforeAll(async () => {
      env = await startTestApp(db, {}, undefined, { transports: fakeTransports().transports });
    });
    afterAll(async () => env?.close());

    /** Owner, R on call all day every day (UTC) on Ops, and members T and U. */
    async function setup() {
      const owner = await registerOwner(env.app, { name: 'Olive Owner' });
      const add = () => addMember(env.deps, env.app, owner.tenantId, 'user');
      const [r, taker, u] = [await add(), await add(), await add()];
      const schedule = await createSchedule(owner.agent, owner.tenantId, scheduleBody(r.userId, { name: 'Ops', timeZone: 'UTC', startTime: '2026-01-01', endTime: null }));
      return { owner, r, taker, u, tenantId: owner.tenantId, schedule };
    }
    const primary = async (on: DB, tenantId: string, scheduleId: string, ms = nowMs + HOUR) => (await whoIsOnCall(on, tenantId, scheduleId, new Date(ms)))?.primary;
    /** An override written behind the app's back: only an answer read from the database sees it. */
    const sneakOverride = (tenantId: string, scheduleId: string, replaced: string, userId: string) =>
      env.deps.db
        .insertInto('oncall_overrides')
        .values({ id: `sneak-${nowMs}-${userId}`, tenant_id: tenantId, schedule_id: scheduleId, replaced_user_id: replaced, user_id: userId, starts_at: iso(nowMs), ends_at: iso(nowMs + 4 * HOUR), note: null, created_by: null, created_at: iso(nowMs) })
        .execute();

    it('answers from memory, reads the database inside a transaction, and sees every write through the app at once', async () => {
      const { owner, r, taker, u, tenantId, schedule } = await setup();
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(r.userId);
      await sneakOverride(tenantId, schedule.id, r.userId, u.userId);
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(r.userId);
      // The escalation engine reads in its transaction: the database's answer.
      expect(await env.deps.db.transaction().execute((trx) => primary(trx, tenantId, schedule.id))).toBe(u.userId);

      // An override made through the app (later, so it wins over the one written behind its back).
      const ovUrl = scheduleUrl(tenantId, schedule.id, '/overrides');
      const made = await owner.agent.post(ovUrl, { replacedUserId: r.userId, userId: taker.userId, startsAt: iso(nowMs), endsAt: iso(nowMs + 2 * HOUR) });
      expect(made.statusCode, made.body).toBe(201);
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(taker.userId);
      const onCall = async () => (await owner.agent.get(`${scheduleUrl(tenantId, schedule.id, '/onCall')}?at=${encodeURIComponent(iso(nowMs + HOUR))}`)).data;
      // R's shift is the UTC day: the answer's shift ends with the override or with the day, whichever comes first
      // (a run between 22:00 and midnight UTC sees the day end first).
      const dayEnd = (ms: number) => (Math.floor(ms / (24 * HOUR)) + 1) * 24 * HOUR;
      expect(await onCall()).toMatchObject({ primary: taker.userId, shiftEndsAt: iso(Math.min(nowMs + 2 * HOUR, dayEnd(nowMs + HOUR))) });
      expect((await owner.agent.delete(`${ovUrl}/${made.data.id}`)).statusCode).toBe(200);
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(u.userId);
      expect(await onCall()).toMatchObject({ primary: u.userId });

      // The schedule edited: its new person at once.
      await env.deps.db.deleteFrom('oncall_overrides').where('id', '=', `sneak-${nowMs}-${u.userId}`).execute();
      const edited = await owner.agent.put(scheduleUrl(tenantId, schedule.id), scheduleBody(taker.userId, { name: 'Ops', timeZone: 'UTC', startTime: '2026-01-01', endTime: null }));
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(taker.userId);

      // Someone removed from the tenant is never paged, from the next answer on.
      const members = (await owner.agent.get(`/api/tenants/${tenantId}/members`)).data.items as Array<{ id: string; userId: string | null }>;
      const removed = await owner.agent.delete(`/api/tenants/${tenantId}/members/${members.find((m) => m.userId === taker.userId)!.id}`);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(await whoIsOnCall(env.deps.db, tenantId, schedule.id, new Date(nowMs + HOUR))).toMatchObject({ primary: null });
    });

    it('sees the pager taken and a shift swap approved at once', async () => {
      const { r, taker, u, tenantId, schedule } = await setup();
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(r.userId);
      const took = await u.agent.post(scheduleUrl(tenantId, schedule.id, '/takePager'), { hours: 2 });
      expect(took.statusCode, took.body).toBe(201);
      expect(await primary(env.deps.db, tenantId, schedule.id)).toBe(u.userId);

      const later = nowMs + 3 * HOUR;
      expect(await primary(env.deps.db, tenantId, schedule.id, later + HOUR)).toBe(r.userId);
      const swap = await r.agent.post(`/api/tenants/${tenantId}/shiftSwaps`, { scheduleId: schedule.id, takerId: taker.userId, startsAt: iso(later), endsAt: iso(later + 4 * HOUR), note: null });
      expect(swap.statusCode, swap.body).toBe(201);
      expect(await primary(env.deps.db, tenantId, schedule.id, later + HOUR)).toBe(r.userId);
      const approved = await taker.agent.post(`/api/tenants/${tenantId}/approvalRequests/${swap.data.requestId}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await primary(env.deps.db, tenantId, schedule.id, later + HOUR)).toBe(taker.userId);
    });

    it('never answers one tenant with another’s schedule, cached or not', async () => {
      const a = await setup();
      const b = await registerOwner(env.app, { name: 'Bea Other' });
      expect(await primary(env.deps.db, a.tenantId, a.schedule.id)).toBe(a.r.userId);
      expect(await whoIsOnCall(env.deps.db, b.tenantId, a.schedule.id, new Date(nowMs + HOUR))).toBeNull();
      const res = await b.agent.get(`${scheduleUrl(b.tenantId, a.schedule.id, '/onCall')}?at=${encodeURIComponent(iso(nowMs + HOUR))}`);
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual({ error: { code: 'not_found', message: 'Schedule not found' } });
      // And the other way round: B asked first, A's answer is still A's.
      const c = await setup();
      expect(await whoIsOnCall(env.deps.db, b.tenantId, c.schedule.id, new Date(nowMs + HOUR))).toBeNull();
      expect(await primary(env.deps.db, c.tenantId, c.schedule.id)).toBe(c.r.userId);
    });

    it.runIf(db.name === 'postgres')('forgets on every instance: an override or a swap made through one is in the other’s next answers', async () => {
      const { owner, r, taker, u, tenantId, schedule } = await setup();
      const other = await buildApp({ ...env.config, jobWorker: false }, { logger: false, transports: fakeTransports().transports });
      await other.app.ready();
      try {
        await new Promise((res) => setTimeout(res, 300)); // its LISTEN connection settles
        const theirs = (ms = nowMs + HOUR) => primary(other.deps.db, tenantId, schedule.id, ms);
        expect(await theirs()).toBe(r.userId);
        await sneakOverride(tenantId, schedule.id, r.userId, u.userId);
        expect(await theirs()).toBe(r.userId); // held in the other instance's memory

        const made = await owner.agent.post(scheduleUrl(tenantId, schedule.id, '/overrides'), { replacedUserId: r.userId, userId: taker.userId, startsAt: iso(nowMs), endsAt: iso(nowMs + 2 * HOUR) });
        expect(made.statusCode, made.body).toBe(201);
        await expect.poll(theirs, { timeout: 2_000, interval: 20 }).toBe(taker.userId);

        const later = nowMs + 5 * HOUR;
        expect(await theirs(later)).toBe(r.userId);
        const swap = await r.agent.post(`/api/tenants/${tenantId}/shiftSwaps`, { scheduleId: schedule.id, takerId: u.userId, startsAt: iso(later), endsAt: iso(later + 2 * HOUR), note: null });
        expect(swap.statusCode, swap.body).toBe(201);
        expect((await u.agent.post(`/api/tenants/${tenantId}/approvalRequests/${swap.data.requestId}/approve`, {})).statusCode).toBe(200);
        await expect.poll(() => theirs(later + HOUR), { timeout: 2_000, interval: 20 }).toBe(u.userId);
      } finally {
        await other.app.close();
      }
    });
  });
}
