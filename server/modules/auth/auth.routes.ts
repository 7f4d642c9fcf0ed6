import type { FastifyInstance } from 'fastify';
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
} from '../../../contract/auth.ts';
import { ErrorBody, Ok } from '../../../contract/common.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { AppError, tooMany, unauthorized } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import { clearSessionCookie, requireUser, SESSION_COOKIE, setSessionCookie } from '../../http/session.ts';
import { findUserByEmail, findUserById } from '../users/users.repository.ts';
import { describeMe, registerTenantForUser, registerUserWithTenant } from './auth.service.ts';
import { finishOidc, startOidc } from './oidc.service.ts';
import { verifyPassword } from './password.ts';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.service.ts';
import { createSession, deleteSession } from './sessions.repository.ts';
import { listUserTenants } from '../tenants/tenants.repository.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody };

export function registerAuthRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = deps;
  const failuresByAccount = new WindowCounter(config.signInLimit.perAccount, config.signInLimit.windowMs);
  const failuresByIp = new WindowCounter(config.signInLimit.perIp, config.signInLimit.windowMs);

  r.get('/api/config', { schema: { tags: ['auth'], response: { 200: PublicConfig } } }, async () => ({
    appHostPrefix: config.appHostPrefix,
    oidcEnabled: config.oidc !== null,
    vapidPublicKey: config.vapid?.publicKey ?? null,
  }));

  r.post('/api/auth/sign-in', { schema: { tags: ['auth'], body: SignInBody, response: { 200: MeResponse, ...errors } } }, async (req, reply) => {
    const { email, password } = req.body;
    const wait = Math.max(failuresByAccount.blockedFor(email), failuresByIp.blockedFor(req.ip));
    if (wait > 0) throw tooMany(OWN_MSG.tooManyAttempts, wait);
    const user = await findUserByEmail(db, email);
    if (!user || !(await verifyPassword(user.password_hash, password))) {
      failuresByAccount.hit(email);
      failuresByIp.hit(req.ip);
      throw new AppError(401, 'invalid_credentials', OWN_MSG.invalidCredentials);
    }
    failuresByAccount.reset(email);
    const at = now();
    await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', user.id).execute();
    setSessionCookie(req, reply, await createSession(db, user.id, { userAgent: req.headers['user-agent'], ip: req.ip }));
    return describeMe(db, { ...user, last_sign_in_at: at });
  });

  r.post('/api/auth/sign-out', { schema: { tags: ['auth'], response: { 200: Ok } } }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await deleteSession(db, token);
    clearSessionCookie(req, reply);
    return { ok: true as const };
  });

  r.get('/api/me', { schema: { tags: ['auth'], response: { 200: MeResponse, 401: ErrorBody } } }, async (req) => describeMe(db, requireUser(req)));

  r.post(
    '/api/auth/password-reset',
    { schema: { tags: ['auth'], body: PasswordResetBody, response: { 200: z.object({ ok: z.literal(true), message: z.string() }), ...errors } } },
    async (req) => {
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

  r.get('/api/auth/oidc/start', { schema: { tags: ['auth'], hide: true } }, async (req, reply) => {
    if (!config.oidc) throw new AppError(404, 'oidc_not_configured', OWN_MSG.oidcNotConfigured);
    try {
      return reply.redirect(await startOidc(deps));
    } catch (err) {
      req.log.error({ err }, 'OIDC start failed');
      return reply.redirect('/login?error=google');
    }
  });

  r.get('/api/auth/oidc/callback', { schema: { tags: ['auth'], hide: true } }, async (req, reply) => {
    if (!config.oidc) throw new AppError(404, 'oidc_not_configured', OWN_MSG.oidcNotConfigured);
    try {
      const user = await finishOidc(deps, new URL(req.url, config.publicUrl));
      await db.updateTable('users').set({ last_sign_in_at: now() }).where('id', '=', user.id).execute();
      setSessionCookie(req, reply, await createSession(db, user.id, { userAgent: req.headers['user-agent'], ip: req.ip }));
      const tenants = await listUserTenants(db, user.id);
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
      const { userData, tenantData } = req.body;
      const result = await registerUserWithTenant(db, { user: userData, tenant: tenantData });
      await db.updateTable('users').set({ last_sign_in_at: now() }).where('id', '=', result.userId).execute();
      setSessionCookie(req, reply, await createSession(db, result.userId, { userAgent: req.headers['user-agent'], ip: req.ip }));
      return result;
    },
  );

  r.post(
    '/api/functions/registerGoogleUserWithTenant',
    { schema: { tags: ['functions'], body: RegisterGoogleUserWithTenantBody, response: { 200: RegisterResponse, ...errors } } },
    async (req) => {
      const sessionUser = requireUser(req);
      const user = await findUserById(db, sessionUser.id);
      if (!user) throw unauthorized();
      return registerTenantForUser(db, user, req.body.tenantData);
    },
  );
}
