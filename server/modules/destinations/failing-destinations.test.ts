import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_MSG } from '../../../contract/destinations.ts';
import { alertTenant } from '../../test/alerts.ts';
import { receiver, until } from '../../test/receiver.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';

const DAY = 86_400_000;

for (const db of testDatabases()) {
  describe(`a destination failing for days [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = Date.now();
    let rx: Awaited<ReturnType<typeof receiver>>;
    beforeAll(async () => {
      rx = await receiver();
      env = await startTestApp(db, { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } }, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await rx.close();
    });

    async function setup() {
      // The endpoint is broken: whatever is not answered otherwise (retries included) fails.
      rx.state.fallback = { status: 500 };
      const t = await alertTenant(env.app);
      const res = await t.owner.agent.post(`/api/tenants/${t.owner.tenantId}/destinations`, { name: 'NOC bridge', url: rx.url, events: ['alert.triggered'] });
      expect(res.statusCode).toBe(201);
      const base = `/api/tenants/${t.owner.tenantId}/destinations/${res.data.id}`;
      const count = async () => (await env.deps.db.selectFrom('destination_deliveries').select('id').where('tenant_id', '=', t.owner.tenantId).execute()).length;
      /** Raises an alert and runs its first delivery attempt, answered with `status`. */
      const deliver = async (key: string, status: number) => {
        rx.answers.push({ status });
        const before = await count();
        await t.raise(key);
        await until(async () => (await count()) === before + 1);
        await env.app.jobs.worker.runDue();
      };
      const dest = async () => (await t.owner.agent.get(`/api/tenants/${t.owner.tenantId}/destinations`)).data.items.find((d: { id: string }) => d.id === res.data.id);
      return { ...t, base, deliver, dest };
    }
    const mailsTo = (email: string) => env.mailer.sent.filter((m) => m.to === email);

    it('is disabled after three days in which every delivery failed, and its owners are told once', async () => {
      const { owner, deliver, dest } = await setup();
      await deliver('day-0', 500);
      nowMs += 2 * DAY;
      await deliver('day-2', 503);
      expect((await dest()).enabled).toBe(true);
      nowMs += DAY + 60_000;
      await deliver('day-3', 500);
      expect(await dest()).toMatchObject({ enabled: false, disabledReason: DESTINATION_MSG.disabledFailing });
      const mails = mailsTo(owner.email);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(DESTINATION_MSG.disabledMailSubject('NOC bridge'));
      expect(mails[0].text).toContain('/app/tenant-admin?tab=destinations');
      // Nothing more is sent, and nobody is told again.
      const sent = rx.got.length;
      await deliver('day-3b', 500).catch(() => {});
      await env.app.jobs.worker.runDue();
      expect(rx.got.length).toBe(sent);
      expect(mailsTo(owner.email)).toHaveLength(1);
    });

    it('stays on when a delivery succeeded within the three days, and when it was turned on again after a fix', async () => {
      const { owner, base, deliver, dest } = await setup();
      await deliver('a', 500);
      nowMs += DAY;
      await deliver('b', 200);
      nowMs += 2.5 * DAY;
      await deliver('c', 500);
      // Failing since 'c' only (the success came after 'a'): not yet three days.
      expect((await dest()).enabled).toBe(true);
      nowMs += 3 * DAY;
      await deliver('d', 500);
      expect((await dest()).enabled).toBe(false);

      // Turned on again: the old failures are forgiven; the next failure alone disables nothing.
      const on = await owner.agent.put(base, { name: 'NOC bridge', url: rx.url, events: ['alert.triggered'], enabled: true });
      expect(on.statusCode).toBe(200);
      nowMs += 60_000;
      await deliver('e', 500);
      expect(await dest()).toMatchObject({ enabled: true, disabledReason: null });
    });

    it('counts no test event: a test failing for days disables nothing', async () => {
      const { base, owner, dest } = await setup();
      rx.answers.push({ status: 500 });
      expect((await owner.agent.post(`${base}/test`)).data.responseStatus).toBe(500);
      nowMs += 4 * DAY;
      rx.answers.push({ status: 500 }, { status: 500 });
      expect((await owner.agent.post(`${base}/test`)).data.responseStatus).toBe(500);
      await env.app.jobs.worker.runDue();
      expect((await dest()).enabled).toBe(true);
    });
  });
}
