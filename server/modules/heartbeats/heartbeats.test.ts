import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { HEARTBEAT_LIMITS, HEARTBEAT_MSG } from '../../../contract/heartbeats.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { insertClient, registerOwner, registerTeam } from '../../test/factories.ts';

const body = (over: Record<string, unknown> = {}) => ({ name: 'Nightly backup', intervalMinutes: 1440, graceMinutes: 60, priority: 'high', ...over });

describeEachDatabase('heartbeat monitors', (t) => {
  it('creates a monitor whose ping URL is shown once and stored only as a hash; lists, gets, updates, deletes it', async () => {
    const owner = await registerOwner(t().app, { name: 'Olivia Owner' });
    const clientId = await insertClient(t().deps.db, owner.tenantId, 'Initech');
    const base = `/api/tenants/${owner.tenantId}/heartbeats`;
    const created = await owner.agent.post(base, body({ name: '  Nightly backup  ', clientId }));
    expect(created.statusCode).toBe(201);
    const hb = created.data;
    expect(hb.pingUrl).toMatch(/^http:\/\/localhost:3000\/api\/heartbeat\/[A-Za-z0-9_-]{43}$/);
    const token = hb.pingUrl.split('/').pop();
    expect(hb).toMatchObject({
      name: 'Nightly backup',
      clientId,
      clientName: 'Initech',
      intervalMinutes: 1440,
      graceMinutes: 60,
      priority: 'high',
      state: 'new',
      tokenPrefix: token.slice(0, 6),
      lastPingAt: null,
      nextDueAt: null,
      downAt: null,
      alertId: null,
      createdByName: 'Olivia Owner',
    });
    const row = await t().deps.db.selectFrom('heartbeats').selectAll().where('id', '=', hb.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    const list = await owner.agent.get(base);
    expect(list.statusCode).toBe(200);
    expect(list.data).toMatchObject({ total: 1, items: [{ id: hb.id, name: 'Nightly backup', state: 'new' }] });
    expect(JSON.stringify(list.data)).not.toContain(token);
    expect(list.data.items[0].pingUrl).toBeUndefined();

    // Filtered by client: the client details show only that client's monitors.
    await owner.agent.post(base, body({ name: 'Unbound sync' }));
    expect((await owner.agent.get(`${base}?clientId=${clientId}`)).data.items.map((h: { name: string }) => h.name)).toEqual(['Nightly backup']);
    expect((await owner.agent.get(base)).data.items.map((h: { name: string }) => h.name)).toEqual(['Nightly backup', 'Unbound sync']);

    const got = await owner.agent.get(`${base}/${hb.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.data).toMatchObject({ id: hb.id, state: 'new' });
    expect(got.data.pingUrl).toBeUndefined();

    const updated = await owner.agent.put(`${base}/${hb.id}`, body({ name: 'Weekly backup', intervalMinutes: 10_080, graceMinutes: 120, priority: 'critical', clientId: null }));
    expect(updated.statusCode).toBe(200);
    expect(updated.data).toMatchObject({ name: 'Weekly backup', intervalMinutes: 10_080, graceMinutes: 120, priority: 'critical', clientId: null, clientName: null, state: 'new' });

    // Renew: a new URL, the old one answers 404 from now on.
    const renewed = await owner.agent.post(`${base}/${hb.id}/renew`);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.data.pingUrl).not.toBe(hb.pingUrl);
    expect((await t().app.inject({ method: 'GET', url: `/api/heartbeat/${token}` })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: new URL(renewed.data.pingUrl).pathname })).statusCode).toBe(200);

    const deleted = await owner.agent.delete(`${base}/${hb.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await owner.agent.get(`${base}/${hb.id}`)).statusCode).toBe(404);
    expect((await owner.agent.delete(`${base}/${hb.id}`)).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: new URL(renewed.data.pingUrl).pathname })).statusCode).toBe(404);
  });

  it('pauses and resumes', async () => {
    const owner = await registerOwner(t().app);
    const base = `/api/tenants/${owner.tenantId}/heartbeats`;
    const hb = (await owner.agent.post(base, body())).data;
    const paused = await owner.agent.post(`${base}/${hb.id}/pause`);
    expect(paused.statusCode).toBe(200);
    expect(paused.data).toMatchObject({ state: 'paused', nextDueAt: null, downAt: null });
    const resumed = await owner.agent.post(`${base}/${hb.id}/resume`);
    // Never pinged: it waits for its first ping again.
    expect(resumed.data).toMatchObject({ state: 'new' });
    await t().app.inject({ method: 'POST', url: new URL(hb.pingUrl).pathname });
    await owner.agent.post(`${base}/${hb.id}/pause`);
    const again = await owner.agent.post(`${base}/${hb.id}/resume`);
    expect(again.data.state).toBe('up');
    expect(Date.parse(again.data.nextDueAt) - Date.now()).toBeGreaterThan(1439 * 60_000);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const owner = await registerOwner(t().app);
    const base = `/api/tenants/${owner.tenantId}/heartbeats`;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: undefined }, 'name', HEARTBEAT_MSG.nameRequired],
      [{ name: '   ' }, 'name', HEARTBEAT_MSG.nameRequired],
      [{ name: 'x'.repeat(121) }, 'name', 'Must be at most 120 characters'],
      [{ intervalMinutes: undefined }, 'intervalMinutes', HEARTBEAT_MSG.intervalRequired],
      [{ intervalMinutes: 0 }, 'intervalMinutes', HEARTBEAT_MSG.intervalRange],
      [{ intervalMinutes: 1.5 }, 'intervalMinutes', HEARTBEAT_MSG.intervalRange],
      [{ intervalMinutes: '60' }, 'intervalMinutes', HEARTBEAT_MSG.intervalRange],
      [{ intervalMinutes: HEARTBEAT_LIMITS.intervalMaxMinutes + 1 }, 'intervalMinutes', HEARTBEAT_MSG.intervalRange],
      [{ graceMinutes: undefined }, 'graceMinutes', HEARTBEAT_MSG.graceRequired],
      [{ graceMinutes: -1 }, 'graceMinutes', HEARTBEAT_MSG.graceRange],
      [{ priority: 'urgent' }, 'priority', HEARTBEAT_MSG.priorityRequired],
      [{ priority: undefined }, 'priority', HEARTBEAT_MSG.priorityRequired],
      [{ name: 'a\u0000b' }, 'name', 'Must not contain NUL characters or unpaired surrogates'],
    ];
    for (const [over, field, message] of cases) {
      const res = await owner.agent.post(base, body(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.data.error.fields?.[field], JSON.stringify(over)).toBe(message);
    }
    // A client of another tenant is no client of this one.
    const other = await registerOwner(t().app);
    const theirClient = await insertClient(t().deps.db, other.tenantId, 'Theirs');
    const res = await owner.agent.post(base, body({ clientId: theirClient }));
    expect(res.statusCode).toBe(400);
    expect(res.data.error.fields).toEqual({ clientId: HEARTBEAT_MSG.unknownClient });
    const hb = (await owner.agent.post(base, body())).data;
    expect((await owner.agent.put(`${base}/${hb.id}`, body({ clientId: theirClient }))).data.error.fields).toEqual({ clientId: HEARTBEAT_MSG.unknownClient });
    expect((await owner.agent.put(`${base}/${hb.id}`, body({ intervalMinutes: 0 }))).statusCode).toBe(400);
    // Deeply nested and huge bodies are refused before the schema.
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect((await owner.agent.post(base, { ...body(), extra: deep })).statusCode).toBe(400);
    expect((await owner.agent.post(base, { ...body(), name: 'x'.repeat(2 * 1024 * 1024) })).statusCode).toBe(413);
    expect((await owner.agent.get(`${base}?clientId=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('lets every member read, owners and admins write; users get 403, strangers 404, anonymous 401', async () => {
    const { owner, admin, user, tenantId } = await registerTeam(t());
    const stranger = await registerOwner(t().app);
    const base = `/api/tenants/${tenantId}/heartbeats`;
    const made = await admin.agent.post(base, body());
    expect(made.statusCode).toBe(201);
    const id = made.data.id;

    // A plain member reads the list and one monitor (no URL in either)…
    expect((await user.agent.get(base)).data.items.map((h: { id: string }) => h.id)).toEqual([id]);
    expect((await user.agent.get(`${base}/${id}?`)).statusCode).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', base, body()],
      ['PUT', `${base}/${id}`, body()],
      ['DELETE', `${base}/${id}`, undefined],
      ['POST', `${base}/${id}/pause`, {}],
      ['POST', `${base}/${id}/resume`, {}],
      ['POST', `${base}/${id}/renew`, {}],
    ];
    // …but writes nothing.
    for (const [method, url, payload] of writes) expect((await user.agent.request(method as 'POST', url, payload)).statusCode, `${method} ${url}`).toBe(403);
    const reads: Array<[string, string, unknown]> = [
      ['GET', base, undefined],
      ['GET', `${base}/${id}`, undefined],
    ];
    for (const [method, url, payload] of [...reads, ...writes]) {
      expect((await stranger.agent.request(method as 'POST', url, payload)).statusCode, `stranger ${method} ${url}`).toBe(404);
      expect((await new Agent(t().app).request(method as 'POST', url, payload)).statusCode, `anonymous ${method} ${url}`).toBe(401);
    }
    // The owner can do all of it.
    expect((await owner.agent.post(`${base}/${id}/pause`)).statusCode).toBe(200);
    expect((await owner.agent.delete(`${base}/${id}`)).statusCode).toBe(200);

    // Another tenant's monitor answers 404 through one's own tenant too, exactly like a missing one.
    const theirs = (await stranger.agent.post(`/api/tenants/${stranger.tenantId}/heartbeats`, body())).data;
    const missing = await owner.agent.get(`${base}/does-not-exist`);
    const foreign = await owner.agent.get(`${base}/${theirs.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    for (const [method, suffix, payload] of [['PUT', '', body()], ['DELETE', '', undefined], ['POST', '/pause', {}], ['POST', '/resume', {}], ['POST', '/renew', {}]] as const) {
      expect((await owner.agent.request(method, `${base}/${theirs.id}${suffix}`, payload)).statusCode, `${method} ${suffix}`).toBe(404);
    }
    expect((await stranger.agent.get(`/api/tenants/${stranger.tenantId}/heartbeats/${theirs.id}`)).data.name).toBe('Nightly backup');
  });

  it('documents its routes in the OpenAPI description', async () => {
    const doc = (await t().app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/tenants/{tenantId}/heartbeats', '/api/tenants/{tenantId}/heartbeats/{heartbeatId}/renew', '/api/heartbeat/{token}', '/api/heartbeat/{token}/start', '/api/heartbeat/{token}/fail']));
    expect(Object.keys(doc.paths['/api/heartbeat/{token}']).sort()).toEqual(['get', 'head', 'post']);
  });

  it(`holds a tenant to ${HEARTBEAT_LIMITS.perTenant} monitors`, async () => {
    const owner = await registerOwner(t().app);
    const at = new Date().toISOString();
    const rows = Array.from({ length: HEARTBEAT_LIMITS.perTenant }, (_, i) => ({
      id: `hb-${owner.tenantId}-${i}`,
      tenant_id: owner.tenantId,
      client_id: null,
      name: `Job ${i}`,
      interval_minutes: 60,
      grace_minutes: 5,
      priority: 'low' as const,
      token_hash: `hash-${owner.tenantId}-${i}`,
      token_prefix: 'abcdef',
      state: 'new' as const,
      period_start_at: null,
      run_started_at: null,
      last_ping_at: null,
      last_fail_at: null,
      next_check_at: null,
      version: 0,
      alert_wanted: 0,
      alert_seq: 0,
      alert_sync_due_at: null,
      alert_id: null,
      created_by: null,
      created_by_name: null,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 100) await t().deps.db.insertInto('heartbeats').values(rows.slice(i, i + 100)).execute();
    const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/heartbeats`, body());
    expect(res.statusCode).toBe(409);
    expect(res.data.error.message).toBe(HEARTBEAT_MSG.tooMany);
  });
});
