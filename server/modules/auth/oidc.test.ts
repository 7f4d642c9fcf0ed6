import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuth2Server } from 'oauth2-mock-server';
import { startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';

/**
 * Sign in with Google end to end: our server talks OpenID Connect (discovery, PKCE code flow, ID token with nonce)
 * to a real local issuer, over HTTP, as a browser would be redirected between them.
 */
for (const db of testDatabases()) {
  describe(`OIDC sign-in against a local issuer [${db.name}]`, () => {
    let issuer: OAuth2Server;
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let base: string;
    let claims: Record<string, unknown> = {};

    beforeAll(async () => {
      issuer = new OAuth2Server();
      await issuer.issuer.keys.generate('RS256');
      await issuer.start(0, '127.0.0.1');
      issuer.service.on('beforeTokenSigning', (token) => {
        Object.assign(token.payload, claims);
      });
      env = await startTestApp(db, {
        oidc: { issuer: issuer.issuer.url!, clientId: 'alertdesk', clientSecret: 'secret', allowInsecure: true },
      });
      await env.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = env.app.server.address();
      base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      env.deps.config.publicUrl = base;
    });
    afterAll(async () => {
      await env?.close();
      await issuer?.stop();
    });

    /** The `alertdesk_oidc` flow cookie the start set (a browser would keep it for the callback path). */
    const flowCookie = (start: Response) => {
      const value = start.headers.getSetCookie().find((c) => c.startsWith('alertdesk_oidc='))?.match(/^alertdesk_oidc=([^;]*)/)?.[1];
      return value ? `alertdesk_oidc=${value}` : null;
    };

    /** Start and the issuer's leg: the callback URL the issuer sends the browser back to, and this browser's flow cookie. */
    async function throughIssuer() {
      const start = await fetch(`${base}/api/auth/oidc/start`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      const authorize = new URL(start.headers.get('location')!);
      expect(authorize.origin).toBe(new URL(issuer.issuer.url!).origin);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
      const atIssuer = await fetch(authorize, { redirect: 'manual' });
      const callback = new URL(atIssuer.headers.get('location')!);
      expect(callback.pathname).toBe('/api/auth/oidc/callback');
      return { callback, flow: flowCookie(start), start };
    }

    /** Opens the callback with the given cookies; returns where it lands and the session cookie it set, if any. */
    async function openCallback(callback: URL, cookie: string | null) {
      const back = await fetch(callback, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      expect(back.status).toBe(302);
      const session = back.headers.get('set-cookie')?.match(/alertdesk_session=([^;]+)/)?.[1];
      return { location: back.headers.get('location')!, cookie: session ? `alertdesk_session=${session}` : null };
    }

    /** Follows the redirects a browser would, keeping its flow cookie; returns where it finally lands. */
    async function signInThroughIssuer() {
      const { callback, flow } = await throughIssuer();
      return openCallback(callback, flow);
    }

    it('creates the user on first sign-in, then lets them register their organization', async () => {
      claims = { sub: 'google-sub-1', email: 'Grace@Example.com', email_verified: true, name: 'Grace Hopper' };
      const first = await signInThroughIssuer();
      expect(first.location).toBe('/login?google=register');
      expect(first.cookie).toMatch(/^alertdesk_session=[\w-]{43}$/);
      const headers = { cookie: first.cookie!, origin: base, 'content-type': 'application/json' };
      const me = await (await fetch(`${base}/api/me`, { headers })).json();
      expect(me.user).toMatchObject({ email: 'grace@example.com', displayName: 'Grace Hopper', hasPassword: false });
      expect(me.tenants).toEqual([]);

      const reg = await fetch(`${base}/api/functions/registerGoogleUserWithTenant`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tenantData: { name: 'Grace MSP', plan: 'starter' } }),
      });
      expect(reg.status).toBe(200);
      const after = await (await fetch(`${base}/api/me`, { headers })).json();
      expect(after.tenants).toEqual([expect.objectContaining({ name: 'Grace MSP', plan: 'starter', role: 'owner' })]);

      const twice = await fetch(`${base}/api/functions/registerGoogleUserWithTenant`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tenantData: { name: 'Second', plan: 'starter' } }),
      });
      expect(twice.status).toBe(409);

      // Next time the same subject lands straight on the dashboard.
      const again = await signInThroughIssuer();
      expect(again.location).toBe('/app/dashboard');
      expect(again.cookie).not.toBe(first.cookie);
    });

    it('links to an existing password account with the same verified email', async () => {
      const owner = await registerOwner(env.app);
      claims = { sub: 'google-sub-2', email: owner.email, email_verified: true, name: 'Someone' };
      const res = await signInThroughIssuer();
      expect(res.location).toBe('/app/dashboard');
      const me = await (await fetch(`${base}/api/me`, { headers: { cookie: res.cookie! } })).json();
      expect(me.user.id).toBe(owner.userId);
    });

    it('refuses an unverified email and a replayed state', async () => {
      claims = { sub: 'google-sub-3', email: 'mallory@example.com', email_verified: false };
      const res = await signInThroughIssuer();
      expect(res.location).toBe('/login?error=google');
      expect(res.cookie).toBeNull();

      claims = { sub: 'google-sub-4', email: 'ok@example.com', email_verified: true };
      const { callback, flow } = await throughIssuer();
      expect((await openCallback(callback, flow)).location).toBe('/login?google=register');
      const replay = await openCallback(callback, flow);
      expect(replay.location).toBe('/login?error=google');
    });

    it('binds the flow to the browser that started it with a short-lived HttpOnly cookie on the callback path', async () => {
      claims = { sub: 'google-sub-5', email: 'cookie@example.com', email_verified: true };
      const { start, callback, flow } = await throughIssuer();
      const set = start.headers.getSetCookie().find((c) => c.startsWith('alertdesk_oidc='))!;
      expect(set).toMatch(/; HttpOnly/i);
      expect(set).toMatch(/; SameSite=Lax/i);
      expect(set).toMatch(/; Path=\/api\/auth\/oidc\/callback(;|$)/);
      expect(set).toMatch(/; Max-Age=600(;|$)/);
      expect(flow!.slice('alertdesk_oidc='.length)).toBe(callback.searchParams.get('state'));
      const back = await fetch(callback, { redirect: 'manual', headers: { cookie: flow! } });
      expect(back.headers.get('location')).toBe('/login?google=register');
      // The flow is over: the cookie goes.
      expect(back.headers.getSetCookie().find((c) => c.startsWith('alertdesk_oidc='))).toMatch(/^alertdesk_oidc=;/);
    });

    it('refuses a callback URL prepared by someone else (login CSRF), with or without a flow of its own', async () => {
      // The attacker goes through the issuer with their own account and keeps the callback URL instead of opening it.
      claims = { sub: 'attacker-sub', email: 'attacker@example.com', email_verified: true, name: 'Attacker' };
      const attacker = await throughIssuer();
      const before = await env.deps.db.selectFrom('users').select('id').where('oidc_subject', '=', 'attacker-sub').executeTakeFirst();
      expect(before).toBeUndefined();

      // The victim's browser opens it: no flow cookie at all…
      const bare = await openCallback(attacker.callback, null);
      expect(bare).toEqual({ location: '/login?error=google', cookie: null });
      // …or while its own sign-in is under way (its cookie names another state).
      claims = { sub: 'victim-sub', email: 'victim@example.com', email_verified: true, name: 'Victim' };
      const victim = await throughIssuer();
      const crossed = await openCallback(attacker.callback, victim.flow);
      expect(crossed).toEqual({ location: '/login?error=google', cookie: null });
      expect(await env.deps.db.selectFrom('users').select('id').where('oidc_subject', '=', 'attacker-sub').executeTakeFirst()).toBeUndefined();
      // A stale or forged cookie value is no better than none.
      expect((await openCallback(attacker.callback, 'alertdesk_oidc=not-the-state')).location).toBe('/login?error=google');

      // The victim's own flow was left alone and still completes, as them.
      const own = await openCallback(victim.callback, victim.flow);
      expect(own.location).toBe('/login?google=register');
      const me = await (await fetch(`${base}/api/me`, { headers: { cookie: own.cookie! } })).json();
      expect(me.user.email).toBe('victim@example.com');
    });

    it('links to an existing password account only when the issuer asserts email_verified: true', async () => {
      const owner = await registerOwner(env.app);
      for (const [sub, extra] of [
        ['no-claim-sub', {}],
        ['string-claim-sub', { email_verified: 'true' }],
      ] as const) {
        claims = { sub, email: owner.email, name: 'Not proven', ...extra };
        const res = await signInThroughIssuer();
        expect(res).toEqual({ location: '/login?error=google', cookie: null });
      }
      const row = await env.deps.db.selectFrom('users').select(['oidc_subject', 'email_verified_at']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
      expect(row).toEqual({ oidc_subject: null, email_verified_at: null });
      // Nor does such a token create an account of its own with the address marked as proven.
      claims = { sub: 'no-claim-new', email: 'unproven@example.com' };
      expect((await signInThroughIssuer()).location).toBe('/login?error=google');
      expect(await env.deps.db.selectFrom('users').select('id').where('email', '=', 'unproven@example.com').executeTakeFirst()).toBeUndefined();
    });

    it('registerGoogleUserWithTenant needs a session', async () => {
      const res = await fetch(`${base}/api/functions/registerGoogleUserWithTenant`, {
        method: 'POST',
        headers: { origin: base, 'content-type': 'application/json' },
        body: JSON.stringify({ tenantData: { name: 'X', plan: 'trial' } }),
      });
      expect(res.status).toBe(401);
    });
  });
}

describe('OIDC not configured', () => {
  it('says so instead of redirecting, and the public config tells the sign-in page', async () => {
    const env = await startTestApp(testDatabases()[0]);
    try {
      const res = await env.app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Sign in with Google is not configured on this server');
      expect((await env.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ oidcEnabled: false, appHostPrefix: 'app.' });
    } finally {
      await env.close();
    }
  });
});
