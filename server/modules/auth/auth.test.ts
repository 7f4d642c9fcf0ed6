import { describe, expect, it } from 'vitest';
import { MSG, OWN_MSG } from '../../../contract/messages.ts';
import { Agent, describeEachDatabase, startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';

const register = (agent: Agent, userData: Record<string, unknown>, tenantData: Record<string, unknown> = { name: 'Acme', plan: 'trial' }) =>
  agent.post('/api/functions/registerUserWithTenant', { userData, tenantData });

describeEachDatabase('auth and registration', (t) => {
  it('registers a user with a tenant, signs them in and reports them as owner', async () => {
    const agent = new Agent(t().app);
    const email = uniqueEmail();
    const res = await register(agent, { email: email.toUpperCase(), password: 'secret1', displayName: 'Ada' }, { name: 'Ada MSP', plan: 'growth' });
    expect(res.statusCode).toBe(200);
    expect(agent.cookie).toBeTruthy();
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
      [{ email: '', password: '', displayName: '' }, MSG.emailRequired],
      [{ email: 'a@b.co', password: '', displayName: ' ' }, MSG.nameRequired],
      [{ email: 'a@b.co', password: '', displayName: 'A' }, MSG.passwordRequired],
      [{ email: 'a@b.co', password: '12345', displayName: 'A' }, MSG.passwordTooShort],
      [{ password: 'secret1', displayName: 'A' }, MSG.emailRequired],
    ];
    for (const [userData, message] of cases) {
      const res = await register(agent, userData);
      expect(res.statusCode).toBe(400);
      expect(res.data.error.message).toBe(message);
      expect(res.data.error.code).toBe('validation_failed');
    }
    const noOrg = await register(agent, { email: uniqueEmail(), password: 'secret1', displayName: 'A' }, { name: '', plan: 'trial' });
    expect(noOrg.data.error.fields['tenantData.name']).toBe(MSG.orgNameRequired);
    const noPlan = await register(agent, { email: uniqueEmail(), password: 'secret1', displayName: 'A' }, { name: 'X', plan: 'no-such-plan' });
    expect(noPlan.statusCode).toBe(400);
    expect(noPlan.data.error.fields['tenantData.plan']).toBe(MSG.selectPlan);
    expect(agent.cookie).toBeNull();
  });

  it('refuses an email that is already registered with 409 and keeps the first account', async () => {
    const first = await registerOwner(t().app);
    const res = await register(new Agent(t().app), { email: first.email, password: 'another1', displayName: 'B' });
    expect(res.statusCode).toBe(409);
    expect(res.data.error.message).toBe(OWN_MSG.emailTaken);
    const again = new Agent(t().app);
    expect((await again.post('/api/auth/sign-in', { email: first.email, password: first.password })).statusCode).toBe(200);
  });

  it('signs in, signs out, and the old session cookie then gets 401', async () => {
    const owner = await registerOwner(t().app);
    const agent = new Agent(t().app);
    const empty = await agent.post('/api/auth/sign-in', { email: '', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.error.message).toBe(MSG.fillAllFields);
    const wrong = await agent.post('/api/auth/sign-in', { email: owner.email, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.data.error.message).toBe(OWN_MSG.invalidCredentials);
    const ok = await agent.post('/api/auth/sign-in', { email: owner.email.toUpperCase(), password: owner.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.user.lastSignInAt).toBeTruthy();
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
    expect(me.data).toEqual({ error: { code: 'unauthorized', message: OWN_MSG.notSignedIn } });
    // The registration session is a different one and still works.
    expect((await owner.agent.get('/api/me')).statusCode).toBe(200);
  });

  it('refuses state-changing requests from another origin (CSRF)', async () => {
    const owner = await registerOwner(t().app);
    const res = await owner.agent.request('POST', '/api/auth/sign-out', {}, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.data.error.code).toBe('cross_origin');
    expect((await owner.agent.get('/api/me')).statusCode).toBe(200);
    const site = await owner.agent.request('POST', '/api/auth/sign-out', {}, { origin: '', 'sec-fetch-site': 'cross-site' });
    expect(site.statusCode).toBe(403);
  });

  it('answers malformed, oversized, non-JSON and polluted bodies with the error shape', async () => {
    const { app } = t();
    const malformed = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('bad_request');
    const text = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('unsupported_media_type');
    const big = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('payload_too_large');
    const proto = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.co","password":"x","__proto__":{"admin":true}}' });
    expect(proto.statusCode).toBe(400);
    expect(proto.json().error).toBeTruthy();
    const nested = await app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.co","password":"x","x":{"constructor":{"prototype":{}}}}' });
    expect(nested.statusCode).toBe(400);
    const missing = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: OWN_MSG.notFound } });
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
    expect(doc.paths['/api/functions/registerUserWithTenant'].post).toBeTruthy();
    expect(doc.paths['/api/auth/sign-in'].post.requestBody).toBeTruthy();
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
      const env = await startTestApp(db, { signInLimit: { perAccount: 3, perIp: 5, windowMs: 60_000 } });
      try {
        const owner = await registerOwner(env.app);
        const agent = new Agent(env.app);
        for (let i = 0; i < 3; i++) expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: 'nope-nope' })).statusCode).toBe(401);
        const blocked = await agent.post('/api/auth/sign-in', { email: owner.email, password: owner.password });
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        expect(blocked.data.error.message).toBe(OWN_MSG.tooManyAttempts);
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
