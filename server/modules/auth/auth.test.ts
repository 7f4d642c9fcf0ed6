import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, trustHops } from '../../config.ts';
import { Agent, describeEachDatabase, startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';
import { expectTimeSince } from '../../test/expect.ts';

const register = (agent: Agent, userData: Record<string, unknown>, tenantData: Record<string, unknown> = { name: 'Acme', plan: 'trial' }) =>
  agent.post('/api/functions/registerUserWithTenant', { userData, tenantData });

describeEachDatabase('auth and registration', (t) => {
  it('registers a user with a tenant, signs them in and reports them as owner', async () => {
    const agent = new Agent(t().app);
    const email = uniqueEmail();
    const res = await register(agent, { email: email.toUpperCase(), password: 'secret1', displayName: 'Ada' }, { name: 'Ada MSP', plan: 'growth' });
    expect(res.statusCode).toBe(200);
    expect(agent.cookie).toMatch(/^alertdesk_session=[\w-]{43}$/);
    const me = await agent.get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.data.user).toMatchObject({ email, displayName: 'Ada', role: 'user' });
    expect(me.data.user.password_hash).toBeUndefined();
    expect(me.data.tenants).toEqual([
      expect.objectContaining({ id: res.data.tenantId, name: 'Ada MSP', plan: 'growth', role: 'owner', abilities: expect.objectContaining({ manageMembers: true }) }),
    ]);
    const tenant = await t().deps.db.selectFrom('tenants').selectAll().where('id', '=', res.data.tenantId).executeTakeFirstOrThrow();
    expect(tenant).toMatchObject({ owner_id: res.data.userId, max_users: 15, max_clients: 25 });
    expect(JSON.parse(tenant.features)).toEqual(['basic_alerts', 'email_notifications', 'sms_notifications', 'escalation_policies']);
    const hash = await t().deps.db.selectFrom('users').select('password_hash').where('id', '=', res.data.userId).executeTakeFirstOrThrow();
    expect(hash.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('answers every registration validation message, first in the spec order', async () => {
    const agent = new Agent(t().app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: '', password: '', displayName: '' }, 'Email is required'],
      [{ email: 'a@b.co', password: '', displayName: ' ' }, 'Name is required'],
      [{ email: 'a@b.co', password: '', displayName: 'A' }, 'Password is required'],
      [{ email: 'a@b.co', password: '12345', displayName: 'A' }, 'Password must be at least 6 characters'],
      [{ email: 'a@b.co', password: 'p'.repeat(201), displayName: 'A' }, 'Password must be at most 200 characters'],
      [{ password: 'secret1', displayName: 'A' }, 'Email is required'],
    ];
    for (const [userData, message] of cases) {
      const res = await register(agent, userData);
      expect(res.statusCode).toBe(400);
      expect(res.data.error.message).toBe(message);
      expect(res.data.error.code).toBe('validation_failed');
    }
    const noOrg = await register(agent, { email: uniqueEmail(), password: 'secret1', displayName: 'A' }, { name: '', plan: 'trial' });
    expect(noOrg.data.error.fields['tenantData.name']).toBe('Organization name is required');
    const noPlan = await register(agent, { email: uniqueEmail(), password: 'secret1', displayName: 'A' }, { name: 'X', plan: 'no-such-plan' });
    expect(noPlan.statusCode).toBe(400);
    expect(noPlan.data.error.fields['tenantData.plan']).toBe('Please select a plan');
    expect(agent.cookie).toBeNull();
  });

  it('refuses a second organization for a signed-in user who already has one (registerGoogleUserWithTenant)', async () => {
    const owner = await registerOwner(t().app);
    const res = await owner.agent.post('/api/functions/registerGoogleUserWithTenant', { tenantData: { name: 'Second MSP', plan: 'trial' } });
    expect(res.statusCode).toBe(409);
    expect(res.data.error).toEqual({ code: 'conflict', message: 'You already belong to an organization' });
    expect((await owner.agent.get('/api/me')).data.tenants.map((x: { name: string }) => x.name)).toEqual(['Acme MSP']);
  });

  it('refuses an email that is already registered with 409 and keeps the first account', async () => {
    const first = await registerOwner(t().app);
    const res = await register(new Agent(t().app), { email: first.email, password: 'another1', displayName: 'B' });
    expect(res.statusCode).toBe(409);
    expect(res.data.error.message).toBe('An account with this email already exists');
    const again = new Agent(t().app);
    expect((await again.post('/api/auth/sign-in', { email: first.email, password: first.password })).statusCode).toBe(200);
  });

  it('signs in, signs out, and the old session cookie then gets 401', async () => {
    const owner = await registerOwner(t().app);
    const agent = new Agent(t().app);
    const empty = await agent.post('/api/auth/sign-in', { email: '', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.error.message).toBe('Please fill in all fields');
    const wrong = await agent.post('/api/auth/sign-in', { email: owner.email, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.data.error.message).toBe('Invalid email or password');
    const before = Date.now();
    const ok = await agent.post('/api/auth/sign-in', { email: owner.email.toUpperCase(), password: owner.password });
    expect(ok.statusCode).toBe(200);
    expectTimeSince(ok.data.user.lastSignInAt, before);
    const cookie = agent.cookie!;
    expect(cookie).not.toBe(owner.agent.cookie);
    const setCookie = String(ok.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect((await agent.post('/api/auth/sign-out')).statusCode).toBe(200);
    const stale = new Agent(t().app);
    stale.cookie = cookie;
    const me = await stale.get('/api/me');
    expect(me.statusCode).toBe(401);
    expect(me.data).toEqual({ error: { code: 'unauthorized', message: 'You must be signed in' } });
    // The registration session is a different one and still works.
    expect((await owner.agent.get('/api/me')).statusCode).toBe(200);
  });

  it('refuses state-changing requests from another origin (CSRF)', async () => {
    const owner = await registerOwner(t().app);
    const res = await owner.agent.request('POST', '/api/auth/sign-out', {}, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.data.error).toEqual({ code: 'cross_origin', message: 'Cross-origin request refused' });
    expect((await owner.agent.get('/api/me')).statusCode).toBe(200);
    const site = await owner.agent.request('POST', '/api/auth/sign-out', {}, { origin: '', 'sec-fetch-site': 'cross-site' });
    expect(site.statusCode).toBe(403);
  });

  it('answers malformed, oversized, non-JSON and polluted bodies with the error shape', async () => {
    const { app } = t();
    const malformed = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toEqual({ code: 'bad_request', message: 'Malformed JSON body' });
    const text = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toEqual({ code: 'unsupported_media_type', message: 'Unsupported content type; send application/json' });
    const big = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toEqual({ code: 'payload_too_large', message: 'Request body is too large' });
    const proto = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.co","password":"x","__proto__":{"admin":true}}' });
    expect(proto.statusCode).toBe(400);
    expect(proto.json().error).toEqual({ code: 'bad_request', message: 'Malformed JSON body' });
    const nested = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.co","password":"x","x":{"constructor":{"prototype":{}}}}' });
    expect(nested.statusCode).toBe(400);
    const missing = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    expect(String(missing.body)).not.toMatch(/at .*\.ts/);
  });

  it('sets security headers and reports health', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const https = await t().app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBeUndefined(); // proxies are not trusted by default
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/functions/registerUserWithTenant'].post).toMatchObject({ tags: ['functions'], requestBody: { required: true } });
    expect(doc.paths['/api/auth/sign-in'].post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { email: { type: 'string', minLength: 1, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
            required: ['email', 'password'],
          },
        },
      },
    });
  });

  it('applies the host rule and the /clients alias', async () => {
    const { app } = t();
    const appHost = await app.inject({ method: 'GET', url: '/', headers: { host: 'app.alertdesk.example' } });
    expect(appHost.statusCode).toBe(302);
    expect(appHost.headers.location).toBe('/app/dashboard');
    const marketing = await app.inject({ method: 'GET', url: '/', headers: { host: 'alertdesk.example' } });
    expect(marketing.statusCode).not.toBe(302);
    const clients = await app.inject({ method: 'GET', url: '/clients' });
    expect(clients.headers.location).toBe('/app/clients');
    const oneClient = await app.inject({ method: 'GET', url: '/clients?client=c-1' });
    expect(oneClient.headers.location).toBe('/app/clients?client=c-1');
  });

  it('seeds the four plans of the spec with Trial as the public default', async () => {
    const plans = await t().deps.db.selectFrom('pricing_plans').selectAll().orderBy('sort_order').execute();
    expect(plans.map((p) => [p.id, p.price, p.max_users, p.max_clients, p.is_default, p.is_public])).toEqual([
      ['trial', 'Free for 14 days', 5, 10, 1, 1],
      ['starter', '$49/month', 5, 10, 0, 1],
      ['growth', '$99/month', 15, 25, 0, 1],
      ['scale', '$199/month', 30, 50, 0, 1],
    ]);
  });
});

describe('sign-in rate limit', () => {
  for (const db of testDatabases()) {
    it(`answers 429 with Retry-After after repeated failures, per account and per IP [${db.name}]`, async () => {
      const env = await startTestApp(db, { signInLimit: { perAccount: 3, perIp: 5, perAccountTotal: 100, windowMs: 60_000 } });
      try {
        const owner = await registerOwner(env.app);
        const agent = new Agent(env.app);
        for (let i = 0; i < 3; i++) expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: 'nope-nope' })).statusCode).toBe(401);
        const blocked = await agent.post('/api/auth/sign-in', { email: owner.email, password: owner.password });
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        expect(blocked.data.error.message).toBe('Too many sign-in attempts. Please try again later.');
        // Per IP: failures over many accounts from one address.
        for (let i = 0; i < 2; i++) await agent.post('/api/auth/sign-in', { email: `x${i}@example.com`, password: 'nope-nope' });
        const ipBlocked = await agent.post('/api/auth/sign-in', { email: 'fresh@example.com', password: 'whatever' });
        expect(ipBlocked.statusCode).toBe(429);
      } finally {
        await env.close();
      }
    });
  }
});

/** One request from a given client address (as the socket sees it), with optional extra headers. */
async function from(app: FastifyInstance, ip: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { origin: 'http://localhost:3000', 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  return Object.assign(res, { data: res.json() });
}
const signInFrom = (app: FastifyInstance, ip: string, email: string, password: string, headers?: Record<string, string>) =>
  from(app, ip, '/api/auth/sign-in', { email, password }, headers);

describe('sign-in lockout per account and address', () => {
  for (const db of testDatabases()) {
    it(`lets the owner in from their own address while a stranger's failures lock only the stranger out [${db.name}]`, async () => {
      const env = await startTestApp(db, { signInLimit: { perAccount: 3, perIp: 30, perAccountTotal: 100, windowMs: 60_000 } });
      try {
        const owner = await registerOwner(env.app);
        for (let i = 0; i < 5; i++) await signInFrom(env.app, '203.0.113.66', owner.email, 'guess-' + i);
        const stranger = await signInFrom(env.app, '203.0.113.66', owner.email, owner.password);
        expect(stranger.statusCode).toBe(429);
        expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
        const ownerIn = await signInFrom(env.app, '198.51.100.7', owner.email, owner.password);
        expect(ownerIn.statusCode).toBe(200);
        expect(ownerIn.data.user.email).toBe(owner.email);
      } finally {
        await env.close();
      }
    });

    it(`keeps a per-account ceiling over all addresses, which the owner's usual address passes [${db.name}]`, async () => {
      const env = await startTestApp(db, { signInLimit: { perAccount: 3, perIp: 30, perAccountTotal: 6, windowMs: 60_000 } });
      try {
        const owner = await registerOwner(env.app);
        // The owner signs in from home once: a live session from that address.
        expect((await signInFrom(env.app, '198.51.100.7', owner.email, owner.password)).statusCode).toBe(200);
        // Distributed guessing: two failures each from three addresses reaches the ceiling of six.
        for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
          for (let i = 0; i < 2; i++) expect((await signInFrom(env.app, ip, owner.email, `guess-${ip}-${i}`)).statusCode).toBe(401);
        const fresh = await signInFrom(env.app, '203.0.113.4', owner.email, owner.password);
        expect(fresh.statusCode).toBe(429);
        // The account's ceiling, not this address's count: its own code, so the page offers a sign-in link (sign-in-link.test.ts).
        expect(fresh.data.error).toEqual({
          code: 'account_throttled',
          message: 'Too many failed sign-in attempts for this email. Try again later, or sign in with a one-time link we email you.',
        });
        // An unknown account under the same ceiling answers the same way: the limit does not reveal accounts.
        const nobody = uniqueEmail('nobody');
        for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) for (let i = 0; i < 2; i++) await signInFrom(env.app, ip, nobody, 'guess');
        const nobodyRefused = await signInFrom(env.app, '203.0.113.4', nobody, 'guess');
        expect(nobodyRefused.statusCode).toBe(429);
        expect(nobodyRefused.data.error).toEqual(fresh.data.error);
        // The owner at home still gets in.
        expect((await signInFrom(env.app, '198.51.100.7', owner.email, owner.password)).statusCode).toBe(200);
      } finally {
        await env.close();
      }
    });
  }
});

describe('TRUST_PROXY', () => {
  it('parses unset/false as no proxy, true as one hop, a number as hops, and lists of addresses', () => {
    for (const v of [undefined, '', 'false', '0']) expect(loadConfig({ TRUST_PROXY: v }).trustProxy).toBe(false);
    const hops = (v: string) => {
      const tp = loadConfig({ TRUST_PROXY: v }).trustProxy;
      return typeof tp === 'function' ? tp.hops : tp;
    };
    expect(hops('true')).toBe(1);
    expect(hops('1')).toBe(1);
    expect(hops('2')).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.0/8']);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.1 ,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.1', 'loopback']);
    expect(trustHops(1)('203.0.113.5', 0)).toBe(true);
    expect(trustHops(1)('203.0.113.5', 1)).toBe(false);
  });

  for (const db of testDatabases()) {
    for (const value of ['true', '1', '127.0.0.1', '10.0.0.0/8,127.0.0.1/32']) {
      it(`TRUST_PROXY=${value}: a forged left-most X-Forwarded-For does not get around the per-IP sign-in limit [${db.name}]`, async () => {
        const env = await startTestApp(db, {
          trustProxy: loadConfig({ TRUST_PROXY: value }).trustProxy,
          signInLimit: { perAccount: 100, perIp: 3, perAccountTotal: 100, windowMs: 60_000 },
        });
        try {
          // The proxy (127.0.0.1, the socket peer) appends the real client, 203.0.113.9, after whatever the client sent.
          const attempt = (forged: string, client = '203.0.113.9') =>
            signInFrom(env.app, '127.0.0.1', uniqueEmail('spray'), 'guess', { 'x-forwarded-for': `${forged}, ${client}` });
          for (let i = 0; i < 3; i++) expect((await attempt(`10.9.8.${i}`)).statusCode).toBe(401);
          const blocked = await attempt('10.9.8.200');
          expect(blocked.statusCode).toBe(429);
          expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
          // Another real client behind the same proxy has its own count.
          expect((await attempt('10.9.8.1', '203.0.113.10')).statusCode).toBe(401);
        } finally {
          await env.close();
        }
      });
    }
  }

  it('without TRUST_PROXY the header is ignored: the socket address counts', async () => {
    const env = await startTestApp(testDatabases()[0], { signInLimit: { perAccount: 100, perIp: 2, perAccountTotal: 100, windowMs: 60_000 } });
    try {
      for (let i = 0; i < 2; i++) await signInFrom(env.app, '192.0.2.1', uniqueEmail('spray'), 'guess', { 'x-forwarded-for': `203.0.113.${i}` });
      expect((await signInFrom(env.app, '192.0.2.1', uniqueEmail('spray'), 'guess', { 'x-forwarded-for': '203.0.113.99' })).statusCode).toBe(429);
    } finally {
      await env.close();
    }
  });
});

describe('registration limit per address', () => {
  for (const db of testDatabases()) {
    it(`answers 429 with Retry-After beyond REGISTER_LIMIT_IP attempts from one address, "already exists" included [${db.name}]`, async () => {
      expect(loadConfig({}).registerLimit).toEqual({ perIp: 10, windowMs: 3600_000 });
      expect(loadConfig({ REGISTER_LIMIT_IP: '4', REGISTER_LIMIT_WINDOW_MS: '60000' }).registerLimit).toEqual({ perIp: 4, windowMs: 60_000 });
      const env = await startTestApp(db, { registerLimit: { perIp: 3, windowMs: 3600_000 } });
      try {
        const body = (email: string) => ({ userData: { email, password: 'secret123', displayName: 'Spam' }, tenantData: { name: 'Spam MSP', plan: 'trial' } });
        const url = '/api/functions/registerUserWithTenant';
        const first = uniqueEmail('reg');
        expect((await from(env.app, '203.0.113.20', url, body(first))).statusCode).toBe(200);
        expect((await from(env.app, '203.0.113.20', url, body(uniqueEmail('reg')))).statusCode).toBe(200);
        expect((await from(env.app, '203.0.113.20', url, body(first))).statusCode).toBe(409);
        const blocked = await from(env.app, '203.0.113.20', url, body(uniqueEmail('reg')));
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        expect(blocked.data.error).toEqual({ code: 'rate_limited', message: 'Too many requests. Please try again later.' });
        // The "already exists" answer is behind the same limit.
        expect((await from(env.app, '203.0.113.20', url, body(first))).statusCode).toBe(429);
        const users = await env.deps.db.selectFrom('users').select('id').execute();
        expect(users).toHaveLength(2);
        // Another address is not affected.
        expect((await from(env.app, '203.0.113.21', url, body(uniqueEmail('reg')))).statusCode).toBe(200);
      } finally {
        await env.close();
      }
    });
  }
});
