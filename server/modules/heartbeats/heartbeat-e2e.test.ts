import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_MSG } from '../../../contract/heartbeats.ts';
import { startTestApp, testDatabases } from '../../test/test-app.ts';

const MINUTE = 60_000;

/**
 * Issue 28, end to end with a 1-minute interval: the real server listening on a port with its job worker running by
 * itself (JOB_WORKER on, polling every 100 ms), driven only over HTTP. Time is the worker's injectable clock (the one
 * the app hands every module), moved by 61 s instead of waiting for it: nothing calls the worker, it sweeps on its own.
 */
for (const db of testDatabases()) {
  describe(`a heartbeat monitor with a 1-minute interval, over HTTP with the job worker running [${db.name}]`, () => {
    let nowMs = Date.now();
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let base = '';
    let cookie = '';

    beforeAll(async () => {
      env = await startTestApp(db, { jobWorker: true }, undefined, { clock: () => new Date(nowMs), pollMs: 100 });
      await env.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(env.app.server.address() as { port: number }).port}`;
    });
    afterAll(async () => env?.close());

    /** A request to the listening server as a signed-in browser would make it (session cookie, own origin). */
    async function call(method: string, path: string, body?: unknown) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { origin: 'http://localhost:3000', ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const session = res.headers.getSetCookie().find((c) => c.startsWith('alertdesk_session='));
      if (session) cookie = session.split(';')[0];
      const text = await res.text();
      return { status: res.status, data: text ? JSON.parse(text) : null };
    }

    it("goes down after a minute without pings, opens \"Heartbeat '<name>' missed\", and the next ping resolves it", async () => {
      const reg = await call('POST', '/api/functions/registerUserWithTenant', {
        userData: { email: `hb-${Date.now()}@example.com`, password: 'secret123', displayName: 'Hana' },
        tenantData: { name: 'Backup MSP', plan: 'trial' },
      });
      expect(reg.status).toBe(200);
      const tenant = `/api/tenants/${reg.data.tenantId}`;
      const created = await call('POST', `${tenant}/heartbeats`, { name: 'Nightly backup', intervalMinutes: 1, graceMinutes: 0, priority: 'high' });
      expect(created.status).toBe(201);
      const monitor = `${tenant}/heartbeats/${created.data.id}`;
      const pingPath = new URL(created.data.pingUrl).pathname;
      const state = async () => (await call('GET', monitor)).data.state as string;
      const alerts = async () => (await call('GET', `${tenant}/alerts`)).data.items as Array<{ id: string; title: string; status: string; priority: string }>;

      expect((await fetch(`${base}${pingPath}`)).status).toBe(200);
      expect(await state()).toBe('up');
      // 30 s later it is still up: the worker sweeps on, nothing fires early.
      nowMs += 30_000;
      await new Promise((r) => setTimeout(r, 400));
      expect(await state()).toBe('up');

      // A minute and a second after the ping, with no grace: the worker alone takes it down and opens the alert.
      nowMs += 31_000;
      await expect.poll(state, { timeout: 10_000, interval: 100 }).toBe('down');
      await expect.poll(async () => (await alerts()).length, { timeout: 10_000, interval: 100 }).toBe(1);
      const [alert] = await alerts();
      expect(alert).toMatchObject({ title: HEARTBEAT_MSG.alertTitleMissed('Nightly backup'), status: 'new', priority: 'high' });
      // Staying silent for more minutes opens nothing more.
      nowMs += 5 * MINUTE;
      await new Promise((r) => setTimeout(r, 400));
      expect(await alerts()).toHaveLength(1);

      // The next ping (a POST this time) brings it up and resolves the alert.
      expect((await fetch(`${base}${pingPath}`, { method: 'POST', body: 'ok' })).status).toBe(200);
      expect(await state()).toBe('up');
      await expect.poll(async () => (await call('GET', `${tenant}/alerts/${alert.id}`)).data.alert.status, { timeout: 10_000, interval: 100 }).toBe('resolved');
    });
  });
}
