import { timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { saveOidcState, takeOidcState } from './oidc-states.repository.ts';
import { createUser, defaultDisplayName, findUserByEmail, findUserByOidcSubject, linkOidcSubject } from '../users/users.service.ts';

let cached: { key: string; config: Promise<client.Configuration> } | null = null;

function oidcConfig(deps: Deps) {
  const o = deps.config.oidc;
  if (!o) throw new Error('OIDC is not configured');
  const key = `${o.issuer}|${o.clientId}`;
  if (!cached || cached.key !== key) {
    const config = client.discovery(new URL(o.issuer), o.clientId, o.clientSecret, undefined, o.allowInsecure ? { execute: [client.allowInsecureRequests] } : undefined);
    config.catch(() => (cached = null));
    cached = { key, config };
  }
  return cached.config;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const redirectUri = (deps: Deps) => `${deps.config.publicUrl}/api/auth/oidc/callback`;

/** How long a started sign-in may take at the issuer: its server-side row and its browser cookie live this long. */
export const OIDC_FLOW_TTL_MS = 600_000;

/**
 * The issuer's authorization URL and the flow's state. Nonce and PKCE verifier are kept server-side under the state
 * for 10 minutes; the caller puts the state in a cookie of the browser that started, so the callback only completes
 * in that browser (no login CSRF).
 */
export async function startOidc(deps: Deps): Promise<{ url: string; state: string }> {
  const config = await oidcConfig(deps);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await saveOidcState(deps.db, { state, code_verifier: codeVerifier, nonce, created_at: now() }, new Date(Date.now() - OIDC_FLOW_TTL_MS).toISOString());
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(deps),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, state };
}

/**
 * Completes the code flow started by this browser (`browserState`: the state from its flow cookie) and returns our
 * user: found by subject, else by an email the issuer asserts as verified (`email_verified: true`), else created.
 */
export async function finishOidc(deps: Deps, currentUrl: URL, browserState: string | undefined) {
  const config = await oidcConfig(deps);
  const state = currentUrl.searchParams.get('state') ?? '';
  // A callback this browser did not start (an attacker's prepared URL) is refused before its state is spent.
  if (!browserState || !sameSecret(browserState, state)) throw new Error('the sign-in was not started in this browser');
  const saved = await takeOidcState(deps.db, state);
  if (!saved || Date.parse(saved.created_at) < Date.now() - OIDC_FLOW_TTL_MS) throw new Error('unknown or expired state');
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: saved.code_verifier,
    expectedState: saved.state,
    expectedNonce: saved.nonce,
  });
  const claims = tokens.claims();
  if (!claims?.sub) throw new Error('no subject in ID token');
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
  const name = typeof claims.name === 'string' ? claims.name : null;

  const bySubject = await findUserByOidcSubject(deps.db, claims.sub);
  if (bySubject) return bySubject;
  // Only an issuer's explicit `email_verified: true` proves the mailbox. Without it we neither link to an existing
  // account of that address (that would hand it over) nor create one (which would squat the address while the
  // issuer's subject keeps signing in after its real owner recovers it by a reset mail).
  if (!email || claims.email_verified !== true) throw new Error('the identity provider did not assert a verified email');
  const at = now();
  const byEmail = await findUserByEmail(deps.db, email);
  if (byEmail) {
    await linkOidcSubject(deps.db, byEmail.id, claims.sub, at);
    return { ...byEmail, oidc_subject: claims.sub, email_verified_at: at };
  }
  return createUser(deps.db, { email, displayName: defaultDisplayName(name, email), oidcSubject: claims.sub, emailVerifiedAt: at }, at);
}
