import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { defaultDisplayName, findUserByEmail } from '../users/users.repository.ts';

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

export const redirectUri = (deps: Deps) => `${deps.config.publicUrl}/api/auth/oidc/callback`;

/** The issuer's authorization URL; state, nonce and PKCE verifier are kept server-side for 10 minutes. */
export async function startOidc(deps: Deps): Promise<string> {
  const config = await oidcConfig(deps);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await deps.db.deleteFrom('oidc_states').where('created_at', '<', new Date(Date.now() - 600_000).toISOString()).execute();
  await deps.db.insertInto('oidc_states').values({ state, code_verifier: codeVerifier, nonce, created_at: now() }).execute();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(deps),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return url.href;
}

/** Completes the code flow and returns our user: found by subject, else by verified email, else created. */
export async function finishOidc(deps: Deps, currentUrl: URL) {
  const config = await oidcConfig(deps);
  const state = currentUrl.searchParams.get('state') ?? '';
  const saved = await deps.db.deleteFrom('oidc_states').where('state', '=', state).returningAll().executeTakeFirst();
  if (!saved || Date.parse(saved.created_at) < Date.now() - 600_000) throw new Error('unknown or expired state');
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: saved.code_verifier,
    expectedState: saved.state,
    expectedNonce: saved.nonce,
  });
  const claims = tokens.claims();
  if (!claims?.sub) throw new Error('no subject in ID token');
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
  const name = typeof claims.name === 'string' ? claims.name : null;

  const bySubject = await deps.db.selectFrom('users').selectAll().where('oidc_subject', '=', claims.sub).executeTakeFirst();
  if (bySubject) return bySubject;
  if (!email || claims.email_verified === false) throw new Error('the identity provider gave no verified email');
  const byEmail = await findUserByEmail(deps.db, email);
  if (byEmail) {
    const at = now();
    await deps.db.updateTable('users').set({ oidc_subject: claims.sub, updated_at: at, email_verified_at: at }).where('id', '=', byEmail.id).execute();
    return { ...byEmail, oidc_subject: claims.sub, email_verified_at: at };
  }
  const at = now();
  const user = {
    id: randomUUID(),
    email,
    display_name: defaultDisplayName(name, email),
    password_hash: null,
    role: 'user' as const,
    plan: null,
    oidc_subject: claims.sub,
    created_at: at,
    updated_at: at,
    last_sign_in_at: null,
    email_verified_at: at,
  };
  await deps.db.insertInto('users').values(user).execute();
  return user;
}
