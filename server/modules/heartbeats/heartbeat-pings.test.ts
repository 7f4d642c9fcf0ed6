import { expect, it } from 'vitest';
import { HEARTBEAT_LIMITS, HEARTBEAT_MSG } from '../../../contract/heartbeats.ts';
import { redactUrl } from '../../../contract/redaction.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';

describeEachDatabase('heartbeat pings', (t) => {
  /** A tenant with one monitor: its owner, the monitor's URL (path only) and a reader of its current state. */
  async function monitor(over: Record<string, unknown> = {}) {
    const owner = await registerOwner(t().app);
    const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/heartbeats`, { name: 'Backup', intervalMinutes: 60, graceMinutes: 10, priority: 'high', ...over });
    expect(res.statusCode).toBe(201);
    const path = new URL(res.data.pingUrl).pathname;
    const read = async () => (await owner.agent.get(`/api/tenants/${owner.tenantId}/heartbeats/${res.data.id}`)).data;
    // The open ones as the dashboard lists them; every one (resolved too) from the table.
    const openAlerts = async () => (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data.items;
    const alerts = () => t().deps.db.selectFrom('alerts').selectAll().where('tenant_id', '=', owner.tenantId).execute();
    return { owner, id: res.data.id as string, path, read, alerts, openAlerts };
  }
  // A scheduler's request: no cookie, no Origin.
  const ping = (method: 'GET' | 'HEAD' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}) =>
    t().app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });

  it('takes GET, HEAD and POST without a session and answers OK; the monitor is up with the time of the ping', async () => {
    const m = await monitor();
    const before = Date.now();
    const get = await ping('GET', m.path);
    expect(get.statusCode).toBe(200);
    expect(get.body).toBe('OK');
    expect(get.headers['content-type']).toMatch(/^text\/plain/);
    const hb = await m.read();
    expect(hb.state).toBe('up');
    expect(Date.parse(hb.lastPingAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(hb.nextDueAt)).toBe(Date.parse(hb.lastPingAt) + 60 * 60_000);
    expect(Date.parse(hb.downAt)).toBe(Date.parse(hb.lastPingAt) + 70 * 60_000);

    const head = await ping('HEAD', m.path);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    // Whatever a POST carries is taken: curl --data (form), text, JSON, nothing at all, or no content type.
    for (const [payload, type] of [['log line', 'application/x-www-form-urlencoded'], ['done in 3 s', 'text/plain'], ['{"a":{"__proto__":1}}', 'application/json'], ['', undefined], ['raw', undefined]] as const) {
      const res = await ping('POST', m.path, payload, type ? { 'content-type': type } : {});
      expect(res.statusCode, `${type} ${payload}`).toBe(200);
      expect(res.body).toBe('OK');
    }
    // A cross-site page may ping too: the secret is the credential, no cookie is involved (no CSRF check).
    expect((await ping('POST', m.path, '', { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(200);
    expect((await m.read()).state).toBe('up');
    expect(await m.alerts()).toEqual([]);
  });

  it('/start announces a run; /fail marks the monitor down at once with an alert carrying the output', async () => {
    const m = await monitor({ priority: 'critical' });
    await ping('GET', m.path);
    const start = await ping('POST', `${m.path}/start`);
    expect(start.statusCode).toBe(200);
    let hb = await m.read();
    expect(hb).toMatchObject({ state: 'up', runStartedAt: expect.any(String) });
    // A run must end within the grace time: down by then unless it reports.
    expect(Date.parse(hb.downAt)).toBe(Date.parse(hb.runStartedAt) + 10 * 60_000);

    const fail = await ping('POST', `${m.path}/fail`, 'ERROR: disk full\u0000 on /backup', { 'content-type': 'text/plain' });
    expect(fail.statusCode).toBe(200);
    hb = await m.read();
    expect(hb).toMatchObject({ state: 'down', runStartedAt: null, lastFailAt: expect.any(String), alertId: expect.any(String) });
    const alerts = await m.openAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: hb.alertId, title: HEARTBEAT_MSG.alertTitleFailed('Backup'), priority: 'critical', status: 'new', source: 'Heartbeat', dedupKey: `heartbeat:${m.id}` });
    expect(alerts[0].description).toContain('Output:\nERROR: disk full on /backup');
    expect(alerts[0].description).toContain(`Last successful ping: ${hb.lastPingAt.slice(0, 16).replace('T', ' ')} UTC`);

    // A second failure while down opens nothing more; a success resolves the alert.
    await ping('GET', `${m.path}/fail`);
    expect(await m.alerts()).toHaveLength(1);
    expect((await m.alerts())[0].occurrences).toBe(1);
    await ping('HEAD', m.path);
    expect(await m.read()).toMatchObject({ state: 'up', alertId: null });
    expect((await m.alerts())[0].status).toBe('resolved');
  });

  it('answers 404 for an unknown, malformed or NUL-bearing secret, and 413 for a body over the limit', async () => {
    const m = await monitor();
    for (const url of ['/api/heartbeat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/api/heartbeat/short', '/api/heartbeat/abc%00defghijklmnopqrstuvwxyz', '/api/heartbeat/abc%20def%2Fghijklmnopqrstuvwxyz', `/api/heartbeat/${'a'.repeat(100)}`, '/api/heartbeat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/fail']) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await ping(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(JSON.parse(res.body).error.message).toBe(HEARTBEAT_MSG.unknownPingUrl);
      }
    }
    expect((await ping('HEAD', '/api/heartbeat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    // Longer than any secret we hand out: the router refuses it before anything is looked up.
    expect((await ping('GET', `/api/heartbeat/${'a'.repeat(300)}`)).statusCode).toBe(414);
    expect((await ping('POST', `${m.path}/fail`, 'x'.repeat(HEARTBEAT_LIMITS.pingBodyBytes + 1), { 'content-type': 'text/plain' })).statusCode).toBe(413);
    // Nothing was recorded by the refused ping.
    expect((await m.read()).state).toBe('new');
    // Other methods are not pings.
    expect((await ping('GET', `${m.path}/other`)).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'PUT', url: m.path })).statusCode).toBe(404);
  });

  it(`refuses more than ${HEARTBEAT_LIMITS.pingsPerMinute} pings a minute on one URL with 429 and Retry-After; other URLs go on`, async () => {
    const m = await monitor();
    const other = await monitor();
    for (let i = 0; i < HEARTBEAT_LIMITS.pingsPerMinute; i++) expect((await ping('GET', i % 2 ? m.path : `${m.path}/start`)).statusCode).toBe(200);
    const refused = await ping('POST', `${m.path}/fail`);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).error.message).toBe(HEARTBEAT_MSG.rateLimited);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The refused /fail changed nothing.
    expect((await m.read()).state).toBe('up');
    expect((await ping('GET', other.path)).statusCode).toBe(200);
  });

  it('keeps the secret out of logs and error reports', () => {
    expect(redactUrl('/api/heartbeat/Zk3bq0_secret-token/fail')).toBe('/api/heartbeat/[redacted]/fail');
    expect(redactUrl('https://alertdesk.example/api/heartbeat/Zk3bq0_secret-token')).toBe('https://alertdesk.example/api/heartbeat/[redacted]');
    expect(redactUrl('/api/tenants/t1/heartbeats/h1')).toBe('/api/tenants/t1/heartbeats/h1');
  });
});
