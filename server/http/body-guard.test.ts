import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { Agent, describeEachDatabase } from '../test/test-app.ts';
import { registerOwner, superAdmin } from '../test/factories.ts';
import { alertRow, createIntegration, ingest, pdTrigger } from '../test/alerts.ts';
import { hasBadCharacters } from './body-guard.ts';

/** `{"a":{"a":…1…}}` nested `depth` objects deep, as text (JSON.stringify of such a value would itself overflow). */
const deepJson = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
/** An object nested exactly `depth` levels (the outermost counts as 1). */
const nested = (depth: number): unknown => JSON.parse(deepJson(depth - 1, '{}'));

const TOO_DEEP = 'Nested too deeply (limit 32)';
const BAD_CHARACTERS = 'Must not contain NUL characters or unpaired surrogates';
const NUL = '\u0000';
const LONE_HIGH = '\ud83d';
const LONE_LOW = '\ude00';

describeEachDatabase('body guard', (t) => {
  const setup = async () => {
    const owner = await registerOwner(t().app);
    const integration = await createIntegration(owner.agent, owner.tenantId);
    const count = async () =>
      Number((await t().deps.db.selectFrom('alerts').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', owner.tenantId).executeTakeFirstOrThrow()).n);
    return { owner, integration, count };
  };
  const raw = (url: string, payload: string, headers: Record<string, string> = {}) =>
    t().app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });

  // --- point 2: depth ------------------------------------------------------------------------------------------

  it('refuses generic-event metadata nested 5,000 deep with 400 naming metadata, and stores nothing', async () => {
    const { integration, count } = await setup();
    const res = await raw('/api/ingest/events', `{"title":"deep","metadata":${deepJson(5000)}}`, { authorization: `Bearer ${integration.key}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ metadata: TOO_DEEP });
    expect(await count()).toBe(0);
  });

  it('refuses PagerDuty custom_details nested 5,000 deep with 400 naming payload.custom_details, in PagerDuty shape', async () => {
    const { integration, count } = await setup();
    const body = `{"routing_key":"${integration.key}","event_action":"trigger","payload":{"summary":"s","source":"x","severity":"info","custom_details":${deepJson(5000)}}}`;
    const res = await raw('/v2/enqueue', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'invalid event', errors: [`payload.custom_details: ${TOO_DEEP}`] });
    expect(await count()).toBe(0);
  });

  it('accepts metadata exactly at the depth limit and lists it back intact', async () => {
    const { owner, integration } = await setup();
    // The body is the first level, metadata the second: metadata may hold 31 levels.
    const metadata = nested(31);
    const res = await ingest(t().app, '/api/ingest/events', { title: 'at the limit', metadata }, { authorization: `Bearer ${integration.key}` });
    expect(res.statusCode).toBe(202);
    const list = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`);
    expect(list.statusCode).toBe(200);
    expect(list.data.items[0].metadata).toEqual(metadata);
    const over = await ingest(t().app, '/api/ingest/events', { title: 'one too deep', metadata: nested(32) }, { authorization: `Bearer ${integration.key}` });
    expect(over.statusCode).toBe(400);
    expect(over.data.error.fields).toEqual({ metadata: TOO_DEEP });
  });

  it('refuses an API body nested 5,000 deep with 400 naming the field', async () => {
    const { owner } = await setup();
    const deep = await t().app.inject({
      method: 'POST',
      url: `/api/tenants/${owner.tenantId}/clients`,
      headers: { origin: 'http://localhost:3000', cookie: owner.agent.cookie!, 'content-type': 'application/json' },
      payload: `{"name":"Deep Co","status":"active","customFields":${deepJson(5000)}}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toMatchObject({ code: 'validation_failed', message: TOO_DEEP, fields: { customFields: TOO_DEEP } });
    const signIn = await raw('/api/auth/sign-in', `{"email":${deepJson(5000)},"password":"x"}`, { origin: 'http://localhost:3000' });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json().error.fields).toEqual({ email: TOO_DEEP });
  });

  it('lists, pages history, shows and acts on an alert whose stored metadata is 5,000 deep (the deep part is replaced)', async () => {
    const { owner, integration } = await setup();
    const at = new Date().toISOString();
    const row = (id: string, status: 'new' | 'resolved', dedup: string) =>
      alertRow(owner.tenantId, {
        id,
        integration_id: integration.id,
        dedup_key: dedup,
        title: 'Stored before the limit existed',
        status,
        source: 'legacy',
        search_text: 'stored before the limit existed',
        created_at: at,
        resolved_at: status === 'resolved' ? at : null,
        tags: '["ok", {"not": "a string"}]',
        metadata: `{"kept":"yes","deep":${deepJson(5000)}}`,
      });
    const activeId = randomUUID();
    const resolvedId = randomUUID();
    await t().deps.db.insertInto('alerts').values([row(activeId, 'new', 'legacy-1'), row(resolvedId, 'resolved', 'legacy-2')]).execute();
    // A row whose metadata is not an object at all, and one whose JSON is broken.
    await t()
      .deps.db.insertInto('alerts')
      .values([
        { ...row(randomUUID(), 'new', 'legacy-3'), metadata: `[${deepJson(5000)}]`, tags: 'not json' },
        { ...row(randomUUID(), 'new', 'legacy-4'), metadata: '{"broken":', tags: '"a string"' },
      ])
      .execute();

    const base = `/api/tenants/${owner.tenantId}/alerts`;
    const active = await owner.agent.get(base);
    expect(active.statusCode).toBe(200);
    expect(active.data.items).toHaveLength(3);
    const legacy = active.data.items.find((a: { id: string }) => a.id === activeId);
    expect(legacy.metadata.kept).toBe('yes');
    expect(legacy.tags).toEqual(['ok']);
    // Kept down to the limit, then a marker: the whole stays within 32 levels.
    let v = legacy.metadata.deep;
    let depth = 2;
    while (v && typeof v === 'object') {
      v = v.a;
      depth++;
    }
    expect(depth).toBeLessThanOrEqual(33);
    expect(typeof v).toBe('string');
    for (const a of active.data.items) expect(a.metadata && typeof a.metadata === 'object' && !Array.isArray(a.metadata)).toBe(true);

    const history = await owner.agent.get(`${base}/history`);
    expect(history.statusCode).toBe(200);
    expect(history.data.items.map((a: { id: string }) => a.id)).toEqual([resolvedId]);
    expect((await owner.agent.get(`${base}/${activeId}`)).statusCode).toBe(200);
    const ack = await owner.agent.post(`${base}/${activeId}/acknowledge`);
    expect(ack.statusCode).toBe(200);
    expect(ack.data.alert.status).toBe('acknowledged');
  });

  // --- points 2 and 3: NUL and lone surrogates in API bodies ---------------------------------------------------

  it('refuses NUL characters in sign-in, password reset and registration with 400 naming the field, without signing in', async () => {
    const agent = new Agent(t().app);
    const signIn = await agent.post('/api/auth/sign-in', { email: `a${NUL}@example.com`, password: 'secret123' });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.data.error).toEqual({ code: 'validation_failed', message: BAD_CHARACTERS, fields: { email: BAD_CHARACTERS } });
    const pw = await agent.post('/api/auth/sign-in', { email: 'a@example.com', password: `x${NUL}` });
    expect(pw.statusCode).toBe(400);
    expect(pw.data.error.fields).toEqual({ password: BAD_CHARACTERS });
    const reset = await agent.post('/api/auth/password-reset', { email: `b${NUL}@example.com` });
    expect(reset.statusCode).toBe(400);
    expect(reset.data.error.fields).toEqual({ email: BAD_CHARACTERS });
    const confirm = await agent.post('/api/auth/password-reset/confirm', { token: `${NUL}`.repeat(20), password: 'newsecret1' });
    expect(confirm.statusCode).toBe(400);
    expect(confirm.data.error.fields).toEqual({ token: BAD_CHARACTERS });
    const users = async () => Number((await t().deps.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await users();
    const register = await agent.post('/api/functions/registerUserWithTenant', {
      userData: { email: `nul-${randomUUID()}@example.com`, password: 'secret123', displayName: `Eve${NUL}` },
      tenantData: { name: 'Nul MSP', plan: 'trial' },
    });
    expect(register.statusCode).toBe(400);
    expect(register.data.error.fields).toEqual({ 'userData.displayName': BAD_CHARACTERS });
    expect(await users()).toBe(before);
  });

  it('refuses prototype property names in API and ingestion bodies with 400 naming the field, and stores nothing', async () => {
    const { owner, integration, count } = await setup();
    const FORBIDDEN = 'Forbidden property name in body';
    const client = await raw(`/api/tenants/${owner.tenantId}/clients`, '{"name":"A","status":"active","constructor":{"x":1}}', {
      origin: 'http://localhost:3000',
      cookie: owner.agent.cookie!,
    });
    expect(client.statusCode).toBe(400);
    expect(client.json().error).toEqual({ code: 'bad_request', message: FORBIDDEN, fields: { constructor: FORBIDDEN } });
    const event = await raw('/api/ingest/events', '{"title":"t","metadata":{"constructor":{"x":1}}}', { authorization: `Bearer ${integration.key}` });
    expect(event.statusCode).toBe(400);
    expect(event.json().error).toEqual({ code: 'bad_request', message: FORBIDDEN, fields: { metadata: FORBIDDEN } });
    expect(await count()).toBe(0);
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/clients`)).data.total).toBe(0);
  });

  it('refuses lone UTF-16 surrogates in API bodies and in property names with 400 naming the field', async () => {
    const { owner } = await setup();
    const clients = async () =>
      Number((await t().deps.db.selectFrom('clients').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', owner.tenantId).executeTakeFirstOrThrow()).n);
    const base = `/api/tenants/${owner.tenantId}/clients`;
    const high = await owner.agent.post(base, { name: `Bad ${LONE_HIGH} Co`, status: 'active' });
    expect(high.statusCode).toBe(400);
    expect(high.data.error.fields).toEqual({ name: BAD_CHARACTERS });
    const low = await owner.agent.post(base, { name: 'Fine Co', status: 'active', tags: ['ok', `x${LONE_LOW}`] });
    expect(low.statusCode).toBe(400);
    expect(low.data.error.fields).toEqual({ 'tags.1': BAD_CHARACTERS });
    const key = await owner.agent.post(base, { name: 'Fine Co', status: 'active', customFields: { [`k${NUL}`]: 'v' } });
    expect(key.statusCode).toBe(400);
    expect(key.data.error.fields).toEqual({ customFields: BAD_CHARACTERS });
    // A well-formed pair (an emoji) is fine.
    const emoji = await owner.agent.post(base, { name: 'Smile \ud83d\ude00 Co', status: 'active' });
    expect(emoji.statusCode).toBe(201);
    expect(emoji.data.name).toBe('Smile \ud83d\ude00 Co');
    expect(await clients()).toBe(1);
  });

  // --- point 3: stripped at ingestion ------------------------------------------------------------------------

  it('strips NUL characters and lone surrogates from ingested events (strings and keys) and stores them', async () => {
    const { owner, integration } = await setup();
    const auth = { authorization: `Bearer ${integration.key}` };
    const generic = await ingest(
      t().app,
      '/api/ingest/events',
      {
        title: `Disk${NUL} full ${LONE_HIGH}on db-1`,
        description: `line${NUL}one${LONE_LOW}`,
        tags: [`tag${NUL}`],
        metadata: { [`ke${NUL}y`]: `va${NUL}lue${LONE_HIGH}`, nested: [{ deep: `x${NUL}` }], emoji: '\ud83d\ude00' },
        dedupKey: `dedup${NUL}1`,
      },
      auth,
    );
    expect(generic.statusCode).toBe(202);
    expect(generic.data.dedupKey).toBe('dedup1');
    const pd = await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key, { dedup_key: `pd${NUL}` }, { summary: `PD${NUL} summary${LONE_LOW}`, custom_details: { [`a${NUL}`]: `b${NUL}` } }));
    expect(pd.statusCode).toBe(202);
    const am = await ingest(
      t().app,
      `/api/ingest/alertmanager/${integration.key}`,
      { status: 'firing', alerts: [{ labels: { alertname: `High${NUL}CPU`, [`inst${NUL}ance`]: `web-1${LONE_HIGH}` }, annotations: { summary: `CPU${NUL}` }, fingerprint: 'f-nul' }] },
    );
    expect(am.statusCode).toBe(202);

    const list = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`);
    expect(list.statusCode).toBe(200);
    const byKey = Object.fromEntries(list.data.items.map((a: { dedupKey: string }) => [a.dedupKey, a]));
    expect(byKey.dedup1).toMatchObject({ title: 'Disk full on db-1', description: 'lineone', tags: ['tag'], metadata: { key: 'value', nested: [{ deep: 'x' }], emoji: '\ud83d\ude00' } });
    expect(byKey.pd).toMatchObject({ title: 'PD summary', metadata: { a: 'b' } });
    expect(byKey['f-nul']).toMatchObject({ title: 'CPU', tags: ['alertname:HighCPU', 'instance:web-1'] });
    const rows = await t().deps.db.selectFrom('alerts').select(['title', 'description', 'metadata', 'tags', 'dedup_key']).where('tenant_id', '=', owner.tenantId).execute();
    for (const r of rows) for (const v of Object.values(r)) expect(hasBadCharacters(String(v))).toBe(false);
  });

  it('answers 400, never 500, for NUL characters in query strings and path parameters', async () => {
    const { owner } = await setup();
    const admin = await superAdmin(t().deps, t().app);
    const history = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/history?q=%00`);
    expect(history.statusCode).toBe(400);
    expect(history.data.error.fields).toEqual({ q: expect.any(String) });
    const clients = await owner.agent.get(`/api/tenants/${owner.tenantId}/clients?search=a%00b`);
    expect(clients.statusCode).toBe(400);
    const users = await admin.agent.get('/api/users?search=%00');
    expect(users.statusCode).toBe(400);
    const surrogate = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/history?q=%ED%A0%BD`);
    expect(surrogate.statusCode).toBeLessThan(500);
    for (const url of [
      '/api/tenants/%00/alerts',
      `/api/tenants/${owner.tenantId}/alerts/%00`,
      `/api/tenants/${owner.tenantId}/clients/abc%00def`,
      '/api/invitations/%00%00%00%00%00%00%00%00%00%00',
    ]) {
      const res = await owner.agent.get(url);
      expect(res.statusCode, url).toBe(400);
    }
    const action = await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/x%00/acknowledge`);
    expect(action.statusCode).toBe(400);
  });
});
