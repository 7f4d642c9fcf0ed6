import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MeResponse,
  PasswordResetBody,
  PasswordResetConfirmBody,
  PublicConfig,
  RegisterGoogleUserWithTenantBody,
  RegisterResponse,
  RegisterUserWithTenantBody,
  SignInBody,
  SignInLinkBody,
  SignInLinkPreview,
  SignInLinkSent,
  SignInLinkTokenBody,
} from '../../../contract/auth.ts';
import { ErrorBody, Ok } from '../../../contract/common.ts';
import { AcceptInvitationResponse, RegisterFromInvitationBody, TokenParam } from '../../../contract/members.ts';
import { ACCOUNT_THROTTLED, OWN_MSG, SIGN_IN_LINK_MSG, SIGN_IN_LINK_TTL_MINUTES } from '../../../contract/messages.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { AppError, tooMany, unauthorized } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import { clearSessionCookie, requireUser, SESSION_COOKIE, setSessionCookie } from '../../http/session.ts';
import { registerFromInvitation } from '../members/invitations.service.ts';
import { unsafeListUserTenants } from '../tenants/tenants.service.ts';
import { findUserByEmail, findUserById, recordSignIn } from '../users/users.service.ts';
import { describeMe, registerTenantForUser, registerUserWithTenant } from './auth.service.ts';
import { finishOidc, OIDC_FLOW_TTL_MS, startOidc } from './oidc.service.ts';
import { verifyPassword } from '../../lib/password.ts';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.service.ts';
import { previewSignInLink, sendSignInLink, useSignInLink } from './sign-in-link.service.ts';
import { createSession, deleteSession, hasLiveSessionFrom } from './sessions.repository.ts';

/**
 * Binds a Google sign-in to the browser that started it: the flow's state, sent back only to the callback path, for
 * as long as the flow may take. SameSite=Lax still rides along the issuer's top-level redirect back to us.
 */
const OIDC_COOKIE = 'alertdesk_oidc';
const oidcCookieOptions = (req: FastifyRequest) => ({
  path: '/api/auth/oidc/callback',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: req.protocol === 'https',
});

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const invitationErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const linkErrors = { 400: ErrorBody, 404: ErrorBody, 410: ErrorBody };

/**
 * Sign-in link mails per window: per address over every email asked (beyond it 429, as for reset mails: it says nothing
 * about accounts), and per email, account or not (beyond it the same 200 and no mail). Three mails at most reach the
 * owner's mailbox however many addresses ask, and asking cannot lock the owner out either: a link lasts as long as the
 * window, so while an email's count is full, every link mailed in that window still works (until one is used).
 */
const LINKS_PER_ADDRESS = 10;
const LINKS_PER_ACCOUNT = 3;
const LINK_WINDOW_MS = SIGN_IN_LINK_TTL_MINUTES * 60_000;

/** 429 for a sign-in refused by the account's ceiling: its own code, so the page can offer a sign-in link instead. */
const accountThrottled = (retryAfterSec: number) =>
  new AppError(429, ACCOUNT_THROTTLED, SIGN_IN_LINK_MSG.accountThrottled, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSec))) });

export function registerAuthRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = deps;
  const limits = config.signInLimit;
  // Failed sign-ins: per (account, address) pair, so strangers cannot lock the owner out from their own address; per
  // address over all accounts; and a higher ceiling per account over all addresses against distributed guessing.
  const failuresByPair = new WindowCounter(limits.perAccount, limits.windowMs);
  const failuresByIp = new WindowCounter(limits.perIp, limits.windowMs);
  const failuresByAccount = new WindowCounter(limits.perAccountTotal, limits.windowMs);
  const registrationsByIp = new WindowCounter(config.registerLimit.perIp, config.registerLimit.windowMs);
  const resetRequestsByIp = new WindowCounter(config.resetLimit.perIp, config.resetLimit.windowMs);
  const linkRequestsByIp = new WindowCounter(LINKS_PER_ADDRESS, LINK_WINDOW_MS);
  const linkMailsByAccount = new WindowCounter(LINKS_PER_ACCOUNT, LINK_WINDOW_MS);
  // Sign-in link mails still going out (they are sent after the answer); closing the server waits for them.
  const mailing = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...mailing]);
  });

  /** Counts a registration attempt from this address, or answers 429 when it has made too many. */
  const limitRegistration = (ip: string) => {
    const wait = registrationsByIp.blockedFor(ip);
    if (wait > 0) throw tooMany(OWN_MSG.tooManyRequests, wait);
    registrationsByIp.hit(ip);
  };

  /** Records the sign-in and starts a session for this browser; returns the sign-in time. */
  const signIn = async (req: FastifyRequest, reply: FastifyReply, userId: string) => {
    const at = now();
    await recordSignIn(db, userId, at);
    setSessionCookie(req, reply, await createSession(db, userId, { userAgent: req.headers['user-agent'], ip: req.ip }));
    return at;
  };

  r.get('/api/config', { schema: { tags: ['auth'], response: { 200: PublicConfig } } }, async () => ({
    appHostPrefix: config.appHostPrefix,
    oidcEnabled: config.oidc !== null,
    vapidPublicKey: config.vapid?.publicKey ?? null,
    smsEnabled: config.sms !== null,
    voiceEnabled: config.voice !== null,
    sentryDsn: config.production ? config.sentry.webDsn : null,
  }));

  r.post('/api/auth/sign-in', { schema: { tags: ['auth'], body: SignInBody, response: { 200: MeResponse, ...errors } } }, async (req, reply) => {
    const { email, password } = req.body;
    const pair = `${email}\n${req.ip}`;
    const wait = Math.max(failuresByPair.blockedFor(pair), failuresByIp.blockedFor(req.ip));
    if (wait > 0) throw tooMany(OWN_MSG.tooManyAttempts, wait);
    const user = await findUserByEmail(db, email);
    const ceiling = failuresByAccount.blockedFor(email);
    // Same query whether or not the account exists, so the answer under attack does not tell accounts apart.
    if (ceiling > 0 && !(await hasLiveSessionFrom(db, user?.id ?? '', req.ip))) throw accountThrottled(ceiling);
    // Always one argon2id verification (a dummy hash without an account or password): no timing difference.
    const valid = await verifyPassword(user?.password_hash, password);
    if (!user || !valid) {
      failuresByPair.hit(pair);
      failuresByIp.hit(req.ip);
      failuresByAccount.hit(email);
      throw new AppError(401, 'invalid_credentials', OWN_MSG.invalidCredentials);
    }
    failuresByPair.reset(pair);
    const at = await signIn(req, reply, user.id);
    return describeMe(db, { ...user, last_sign_in_at: at });
  });

  r.post('/api/auth/sign-out', { schema: { tags: ['auth'], response: { 200: Ok } } }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await deleteSession(db, token);
    // That session's live streams (on every instance) end now rather than at their next heartbeat.
    if (req.sessionUser) deps.bus.revokeAccess({ userId: req.sessionUser.id });
    clearSessionCookie(req, reply);
    return { ok: true as const };
  });

  r.get('/api/me', { schema: { tags: ['auth'], response: { 200: MeResponse, 401: ErrorBody } } }, async (req) => describeMe(db, requireUser(req)));

  r.post(
    '/api/auth/password-reset',
    { schema: { tags: ['auth'], body: PasswordResetBody, response: { 200: z.object({ ok: z.literal(true), message: z.string() }), ...errors } } },
    async (req) => {
      // Per address, whatever the email and whether it has an account: the answer tells nothing about accounts.
      const wait = resetRequestsByIp.blockedFor(req.ip);
      if (wait > 0) throw tooMany(OWN_MSG.tooManyRequests, wait);
      resetRequestsByIp.hit(req.ip);
      await requestPasswordReset(deps, req.body.email);
      return { ok: true as const, message: OWN_MSG.resetEmailSent };
    },
  );

  r.post(
    '/api/auth/password-reset/confirm',
    { schema: { tags: ['auth'], body: PasswordResetConfirmBody, response: { 200: Ok, ...errors } } },
    async (req) => {
      await confirmPasswordReset(deps, req.body.token, req.body.password);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/auth/sign-in-link',
    { schema: { tags: ['auth'], body: SignInLinkBody, response: { 200: SignInLinkSent, ...errors } } },
    async (req) => {
      const { email } = req.body;
      const wait = linkRequestsByIp.blockedFor(req.ip);
      if (wait > 0) throw tooMany(OWN_MSG.tooManyRequests, wait);
      linkRequestsByIp.hit(req.ip);
      if (linkMailsByAccount.blockedFor(email) === 0) {
        linkMailsByAccount.hit(email);
        // Not awaited: the answer must take as long for an email without an account (one look-up) as with one (a
        // look-up, an insert and an SMTP exchange).
        const sending = sendSignInLink(deps, email).catch((err: unknown) => req.log.error({ err }, 'sign-in link mail failed'));
        mailing.add(sending);
        void sending.finally(() => mailing.delete(sending));
      }
      return { ok: true as const, message: SIGN_IN_LINK_MSG.sent(email) };
    },
  );

  // Opening the link shows whom it signs in; only the button (this POST) uses it, so a mail scanner that follows it
  // spends nothing.
  r.post(
    '/api/auth/sign-in-link/preview',
    { schema: { tags: ['auth'], body: SignInLinkTokenBody, response: { 200: SignInLinkPreview, ...linkErrors } } },
    async (req) => previewSignInLink(deps, req.body.token),
  );

  // Not behind the failed-sign-in counters: that is its point. Guessing a 256-bit token is hopeless, and whoever holds
  // a live one reads the account's mailbox, which could reset the password anyway.
  r.post(
    '/api/auth/sign-in-link/use',
    { schema: { tags: ['auth'], body: SignInLinkTokenBody, response: { 200: MeResponse, ...linkErrors } } },
    async (req, reply) => {
      const user = await useSignInLink(deps, req.body.token);
      // This address is the owner's: its own failure count starts over, and the session it now holds takes it past the
      // account's ceiling for later password sign-ins too (the ceiling itself stays, for the other addresses).
      failuresByPair.reset(`${user.email}\n${req.ip}`);
      const at = await signIn(req, reply, user.id);
      return describeMe(db, { ...user, last_sign_in_at: at });
    },
  );

  r.get('/api/auth/oidc/start', { schema: { tags: ['auth'], hide: true } }, async (req, reply) => {
    if (!config.oidc) throw new AppError(404, 'oidc_not_configured', OWN_MSG.oidcNotConfigured);
    try {
      const { url, state } = await startOidc(deps);
      reply.setCookie(OIDC_COOKIE, state, { ...oidcCookieOptions(req), maxAge: OIDC_FLOW_TTL_MS / 1000 });
      return reply.redirect(url);
    } catch (err) {
      req.log.error({ err }, 'OIDC start failed');
      return reply.redirect('/login?error=google');
    }
  });

  r.get('/api/auth/oidc/callback', { schema: { tags: ['auth'], hide: true } }, async (req, reply) => {
    if (!config.oidc) throw new AppError(404, 'oidc_not_configured', OWN_MSG.oidcNotConfigured);
    const callbackUrl = new URL(req.url, config.publicUrl);
    const browserState = req.cookies[OIDC_COOKIE];
    // This browser's flow ends here whatever its outcome; a callback it did not start leaves its own flow alone.
    if (browserState && browserState === callbackUrl.searchParams.get('state')) reply.clearCookie(OIDC_COOKIE, oidcCookieOptions(req));
    try {
      const user = await finishOidc(deps, callbackUrl, browserState);
      await signIn(req, reply, user.id);
      const tenants = await unsafeListUserTenants(db, user.id);
      return reply.redirect(tenants.length > 0 ? '/app/dashboard' : '/login?google=register');
    } catch (err) {
      req.log.warn({ err }, 'OIDC callback failed');
      return reply.redirect('/login?error=google');
    }
  });

  r.post(
    '/api/functions/registerUserWithTenant',
    { schema: { tags: ['functions'], body: RegisterUserWithTenantBody, response: { 200: RegisterResponse, ...errors } } },
    async (req, reply) => {
      limitRegistration(req.ip);
      const { userData, tenantData } = req.body;
      const result = await registerUserWithTenant(db, { user: userData, tenant: tenantData });
      await signIn(req, reply, result.userId);
      return result;
    },
  );

  // A new person's account from an invitation link (members/invitations.service.ts), signed in at once like any
  // registration.
  r.post(
    '/api/invitations/:token/register',
    {
      schema: {
        tags: ['invitations'],
        params: TokenParam,
        body: RegisterFromInvitationBody,
        response: { 200: AcceptInvitationResponse.extend({ me: MeResponse }), ...invitationErrors },
      },
    },
    async (req, reply) => {
      const joined = await registerFromInvitation(db, req.params.token, req.body);
      setSessionCookie(req, reply, await createSession(db, joined.userId, { userAgent: req.headers['user-agent'], ip: req.ip }));
      const user = await findUserById(db, joined.userId);
      if (!user) throw unauthorized();
      return { tenantId: joined.tenantId, tenantName: joined.tenantName, me: await describeMe(db, user) };
    },
  );

  r.post(
    '/api/functions/registerGoogleUserWithTenant',
    { schema: { tags: ['functions'], body: RegisterGoogleUserWithTenantBody, response: { 200: RegisterResponse, ...errors } } },
    async (req) => {
      const sessionUser = requireUser(req);
      limitRegistration(req.ip);
      const user = await findUserById(db, sessionUser.id);
      if (!user) throw unauthorized();
      return registerTenantForUser(db, user, req.body.tenantData);
    },
  );
}
