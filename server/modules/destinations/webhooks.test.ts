import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_MSG } from '../../../contract/destinations.ts';
import type { Config } from '../../config.ts';
import { alertTenant } from '../../test/alerts.ts';
import { registerTeam } from '../../test/factories.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { postJson } from './outbound-post.ts';
import { receiver, until } from '../../test/receiver.ts';
import { verifyStandardWebhook } from '../../test/destination-stand-ins.ts';

for (const db of testDatabases()) {
  describe(`outbound webhooks [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = Date.now();
    let rx: Awaited<ReturnType<typeof receiver>>;
    const overrides: Partial<Config> = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } };
    beforeAll(async () => {
      rx = await receiver();
      env = await startTestApp(db, overrides, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await rx.close();
    });
    const deliveries = (tenantId: string) => env.deps.db.selectFrom('destination_deliveries').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();

    async function setup(body: Record<string, unknown> = {}) {
      const t = await alertTenant(env.app);
      const res = await t.owner.agent.post(`/api/tenants/${t.owner.tenantId}/destinations`, { name: 'PSA bridge', url: rx.url, events: ['alert.triggered', 'alert.acknowledged', 'alert.resolved'], ...body });
      expect(res.statusCode).toBe(201);
      return { ...t, dest: res.data, destBase: `/api/tenants/${t.owner.tenantId}/destinations/${res.data.id}` };
    }

    it('creates a webhook destination whose secret is shown once and stored encrypted; validates; owners and admins only', async () => {
      const team = await registerTeam(env);
      const base = `/api/tenants/${team.tenantId}/destinations`;
      const created = await team.admin.agent.post(base, { name: 'PSA', url: rx.url, events: ['alert.triggered'], filter: { priorities: ['critical'] } });
      expect(created.statusCode).toBe(201);
      expect(created.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.data).toMatchObject({ type: 'webhook', name: 'PSA', url: rx.url, events: ['alert.triggered'], filter: { priorities: ['critical'] }, enabled: true });
      const row = await env.deps.db.selectFrom('destinations').selectAll().where('id', '=', created.data.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(created.data.secret.slice(6));
      const list = await team.owner.agent.get(base);
      expect(list.data.items).toHaveLength(1);
      expect(JSON.stringify(list.data)).not.toContain(created.data.secret);
      const put = await team.owner.agent.put(`${base}/${created.data.id}`, { name: 'PSA 2', url: rx.url, events: ['alert.resolved'] });
      expect(put.statusCode).toBe(200);
      expect(put.data).toMatchObject({ name: 'PSA 2', events: ['alert.resolved'], filter: {} });
      expect(put.data.secret).toBeUndefined();

      const teams = await team.owner.agent.post(base, { type: 'teams', name: 'T', url: 'https://example.com/x', events: ['alert.triggered'] });
      expect(teams.statusCode).toBe(400);
      expect(teams.data.error.fields).toEqual({ url: DESTINATION_MSG.teamsUrlHost });
      const bad = await team.owner.agent.post(base, { name: '', url: 'ftp://x', events: [] });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields).toMatchObject({ name: DESTINATION_MSG.nameRequired, url: DESTINATION_MSG.urlInvalid, events: DESTINATION_MSG.eventsRequired });
      expect((await team.user.agent.get(base)).statusCode).toBe(403);
      const other = await alertTenant(env.app);
      expect((await other.owner.agent.get(base)).statusCode).toBe(404);
      expect((await other.owner.agent.delete(`/api/tenants/${other.owner.tenantId}/destinations/${created.data.id}`)).statusCode).toBe(404);
      expect((await team.owner.agent.delete(`${base}/${created.data.id}`)).statusCode).toBe(200);
      expect((await team.owner.agent.get(base)).data.items).toEqual([]);
    });

    it('posts alert events signed after Standard Webhooks (checked by the reference algorithm), filtered by priority', async () => {
      const { owner, base, raise, dest } = await setup({ filter: { priorities: ['critical', 'high'] } });
      rx.got.length = 0;
      const alertId = await raise('db-down', 'critical', 'Database down');
      await raise('minor', 'low', 'Minor thing');
      await until(async () => (await deliveries(owner.tenantId)).length === 1);
      await env.app.jobs.worker.runDue();
      expect(rx.got).toHaveLength(1);
      const first = rx.got[0];
      expect(verifyStandardWebhook(dest.secret, first.headers, first.body, Math.floor(nowMs / 1000))).toBe(true);
      expect(verifyStandardWebhook(`whsec_${Buffer.from('wrong key material 32 bytes long!').toString('base64')}`, first.headers, first.body, Math.floor(nowMs / 1000))).toBe(false);
      expect(first.headers['content-type']).toBe('application/json');
      const payload = JSON.parse(first.body);
      expect(payload).toMatchObject({ type: 'alert.triggered', data: { alert: { id: alertId, title: 'Database down', priority: 'critical', status: 'new' } } });

      expect((await owner.agent.post(`${base}/${alertId}/acknowledge`)).statusCode).toBe(200);
      // A note on an acknowledged alert is no second acknowledgement.
      await owner.agent.post(`${base}/${alertId}/notes`, { text: 'looking' });
      await until(async () => (await deliveries(owner.tenantId)).length === 2);
      await new Promise((r) => setTimeout(r, 100));
      await env.app.jobs.worker.runDue();
      expect(rx.got.map((g) => JSON.parse(g.body).type)).toEqual(['alert.triggered', 'alert.acknowledged']);
      expect(verifyStandardWebhook(dest.secret, rx.got[1].headers, rx.got[1].body, Math.floor(nowMs / 1000))).toBe(true);
      expect((await deliveries(owner.tenantId)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    });

    it('retries on 5xx at 5 s then 5 min with the same webhook-id, honours Retry-After on 429, logs each outcome', async () => {
      const { owner, raise, destBase } = await setup();
      rx.got.length = 0;
      rx.answers.push({ status: 503, body: 'busy' }, { status: 429, headers: { 'retry-after': '900' } }, { status: 200, body: 'thanks' });
      await raise('flappy');
      await until(async () => (await deliveries(owner.tenantId)).length === 1);
      await env.app.jobs.worker.runDue();
      let [d] = await deliveries(owner.tenantId);
      expect(d).toMatchObject({ status: 'pending', attempts: 1, response_status: 503, response_excerpt: 'busy' });
      expect(Date.parse(d.next_attempt_at!) - nowMs).toBe(5_000);
      await env.app.jobs.worker.runDue();
      expect(rx.got).toHaveLength(1);
      nowMs += 5_000;
      await env.app.jobs.worker.runDue();
      [d] = await deliveries(owner.tenantId);
      expect(d).toMatchObject({ status: 'pending', attempts: 2, response_status: 429 });
      // 429's Retry-After (15 min) is later than the schedule's 5 min: it wins.
      expect(Date.parse(d.next_attempt_at!) - nowMs).toBe(900_000);
      nowMs += 300_000;
      await env.app.jobs.worker.runDue();
      expect(rx.got).toHaveLength(2);
      nowMs += 600_000;
      await env.app.jobs.worker.runDue();
      [d] = await deliveries(owner.tenantId);
      expect(d).toMatchObject({ status: 'succeeded', attempts: 3, response_status: 200, response_excerpt: 'thanks' });
      expect(new Set(rx.got.map((g) => g.headers['webhook-id'])).size).toBe(1);
      const log = await owner.agent.get(`${destBase}/deliveries`);
      expect(log.data.items[0]).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200, eventType: 'alert.triggered' });
    });

    it('410 Gone disables the destination; nothing more is sent to it', async () => {
      const { owner, raise, destBase } = await setup();
      rx.got.length = 0;
      rx.answers.push({ status: 410 });
      await raise('gone-1');
      await until(async () => (await deliveries(owner.tenantId)).length === 1);
      await env.app.jobs.worker.runDue();
      const dest = (await owner.agent.get(`/api/tenants/${owner.tenantId}/destinations`)).data.items[0];
      expect(dest).toMatchObject({ enabled: false, disabledReason: DESTINATION_MSG.disabledGone });
      expect((await deliveries(owner.tenantId))[0].status).toBe('failed');
      await raise('gone-2');
      await new Promise((r) => setTimeout(r, 300));
      await env.app.jobs.worker.runDue();
      expect(rx.got).toHaveLength(1);
      expect((await deliveries(owner.tenantId)).length).toBe(1);
      expect((await owner.agent.get(`${destBase}/deliveries`)).data.items).toHaveLength(1);
    });

    it('sends a test event, follows no redirect, and "send again" repeats the same message', async () => {
      const { dest, destBase, owner } = await setup();
      rx.got.length = 0;
      rx.answers.push({ status: 302, headers: { location: '/elsewhere' } });
      const test = await owner.agent.post(`${destBase}/test`);
      expect(test.statusCode).toBe(200);
      expect(test.data).toMatchObject({ eventType: 'destination.test', status: 'failed', responseStatus: 302, attempts: 1 });
      expect(rx.got.map((g) => g.path)).toEqual(['/hook']);
      expect(verifyStandardWebhook(dest.secret, rx.got[0].headers, rx.got[0].body, Math.floor(nowMs / 1000))).toBe(true);
      const again = await owner.agent.post(`${destBase}/deliveries/${test.data.id}/retry`);
      expect(again.statusCode).toBe(200);
      expect(again.data).toMatchObject({ id: test.data.id, status: 'succeeded', responseStatus: 200, attempts: 2, messageId: test.data.messageId });
      expect(rx.got[1].headers['webhook-id']).toBe(test.data.messageId);
    });
  });

  describe(`outbound webhooks: secret rotation [${db.name}]`, () => {
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

    it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
      const { owner } = await alertTenant(env.app);
      const base = `/api/tenants/${owner.tenantId}/destinations`;
      const created = (await owner.agent.post(base, { name: 'Rotating', url: rx.url, events: ['alert.triggered'] })).data;
      const rotated = await owner.agent.post(`${base}/${created.id}/rotateSecret`);
      expect(rotated.statusCode).toBe(200);
      expect(rotated.data.secret).toMatch(/^whsec_/);
      expect(rotated.data.secret).not.toBe(created.secret);
      await owner.agent.post(`${base}/${created.id}/test`);
      const sec = () => Math.floor(nowMs / 1000);
      expect(String(rx.got[0].headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyStandardWebhook(created.secret, rx.got[0].headers, rx.got[0].body, sec())).toBe(true);
      expect(verifyStandardWebhook(rotated.data.secret, rx.got[0].headers, rx.got[0].body, sec())).toBe(true);
      nowMs += 24 * 3600_000 + 1000;
      await owner.agent.post(`${base}/${created.id}/test`);
      expect(String(rx.got[1].headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifyStandardWebhook(created.secret, rx.got[1].headers, rx.got[1].body, sec())).toBe(false);
      expect(verifyStandardWebhook(rotated.data.secret, rx.got[1].headers, rx.got[1].body, sec())).toBe(true);
      expect((await owner.agent.get(base)).data.items[0].secret).toBeUndefined();
    });
  });

  describe(`outbound webhooks: the address guard [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let rx: Awaited<ReturnType<typeof receiver>>;
    beforeAll(async () => {
      rx = await receiver();
      env = await startTestApp(db, { outbound: { allowPrivate: false, allowCidrs: [] } });
    });
    afterAll(async () => {
      await env.close();
      await rx.close();
    });

    it('refuses loopback, private, metadata addresses and a name resolving to one, at send time', async () => {
      const { owner } = await alertTenant(env.app);
      const base = `/api/tenants/${owner.tenantId}/destinations`;
      for (const url of [rx.url, `http://localhost:${rx.port}/hook`, 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x', 'http://100.64.0.1/x']) {
        const created = await owner.agent.post(base, { name: 'Inside', url, events: ['alert.triggered'] });
        expect(created.statusCode).toBe(201);
        const test = await owner.agent.post(`${base}/${created.data.id}/test`);
        expect([url, test.data.status, test.data.responseStatus]).toEqual([url, 'failed', null]);
        expect(test.data.error).toMatch(/not a public address/);
      }
      expect(rx.got).toHaveLength(0);
    });

    it('checks the address a name resolves to when connecting (a resolver standing in for DNS)', async () => {
      for (const address of ['10.1.2.3', '169.254.169.254', '127.0.0.1']) {
        const resolve = ((_h: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address, family: 4 }])) as never;
        const r = await postJson('http://hooks.example.com/x', '{}', {}, { allowPrivate: false, allowed: [], resolve });
        expect([address, r.status, r.guardRefused]).toEqual([address, null, true]);
        expect(r.error).toContain(address);
      }
      // The same name allowed by the operator's CIDR list reaches the address it was checked at.
      const resolve = ((_h: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }])) as never;
      const ok = await postJson(`http://hooks.example.com:${rx.port}/hook`, '{}', {}, { allowPrivate: false, allowed: ['127.0.0.0/8'], resolve });
      expect(ok.status).toBe(200);
      expect(rx.got).toHaveLength(1);
    });
  });
}
