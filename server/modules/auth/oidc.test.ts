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

    /** Follows the redirects a browser would, keeping our cookie; returns where it finally lands. */
    async function signInThroughIssuer(cookie?: string) {
      const start = await fetch(`${base}/api/auth/oidc/start`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      expect(start.status).toBe(302);
      const authorize = new URL(start.headers.get('location')!);
      expect(authorize.origin).toBe(new URL(issuer.issuer.url!).origin);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('nonce')).toBeTruthy();
      const atIssuer = await fetch(authorize, { redirect: 'manual' });
      const callback = new URL(atIssuer.headers.get('location')!);
      expect(callback.pathname).toBe('/api/auth/oidc/callback');
      const back = await fetch(callback, { redirect: 'manual' });
      expect(back.status).toBe(302);
      const setCookie = back.headers.get('set-cookie');
      const session = setCookie?.match(/alertdesk_session=([^;]+)/)?.[1];
      return { location: back.headers.get('location')!, cookie: session ? `alertdesk_session=${session}` : null };
    }

    it('creates the user on first sign-in, then lets them register their organization', async () => {
      claims = { sub: 'google-sub-1', email: 'Grace@Example.com', email_verified: true, name: 'Grace Hopper' };
      const first = await signInThroughIssuer();
      expect(first.location).toBe('/login?google=register');
      expect(first.cookie).toBeTruthy();
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
      const start = await fetch(`${base}/api/auth/oidc/start`, { redirect: 'manual' });
      const atIssuer = await fetch(new URL(start.headers.get('location')!), { redirect: 'manual' });
      const callback = new URL(atIssuer.headers.get('location')!);
      expect((await fetch(callback, { redirect: 'manual' })).headers.get('location')).toBe('/login?google=register');
      const replay = await fetch(callback, { redirect: 'manual' });
      expect(replay.headers.get('location')).toBe('/login?error=google');
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
