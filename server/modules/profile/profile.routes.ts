import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import {
  ChangePasswordBody,
  NotificationPreferencesBody,
  NotificationPreferencesResponse,
  NotificationRulesBody,
  NotificationRulesResponse,
  ProfileResponse,
  PushSubscriptionBody,
  PushSubscriptionStatus,
  PushSubscriptionStatusQuery,
  RemovePushSubscriptionQuery,
  TestPageBody,
  TestPageResult,
  UpdateProfileBody,
  UserTokens,
} from '../../../contract/profile.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { requireUser, signedIn } from '../../http/session.ts';
import { pushSubscriptionStatus, sendTestPage } from './test-page.ts';
import { getNotificationRules, saveNotificationRules } from './notification-rules.service.ts';
import { changePassword, describeUserTokens, getNotificationPreferences, removePushToken, saveNotificationPreferences, updateProfile, upsertPushToken } from './profile.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** Profile, password change, notification preferences and push tokens of the signed-in user. */
export function registerProfileRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  r.patch('/api/profile', { onRequest: signedIn, schema: { tags: ['profile'], body: UpdateProfileBody, response: { 200: ProfileResponse, ...errors } } }, async (req) =>
    updateProfile(db, requireUser(req), req.body),
  );

  r.post('/api/profile/password', { onRequest: signedIn, schema: { tags: ['profile'], body: ChangePasswordBody, response: { 200: Ok, ...errors } } }, async (req) => {
    const user = requireUser(req);
    await changePassword(db, user, req.body);
    // Other sessions were ended: their live streams stop now, not at the next heartbeat.
    deps.bus.revokeAccess({ userId: user.id });
    return { ok: true as const };
  });

  r.get(
    '/api/tenants/:tenantId/notification-preferences',
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['profile'], params: TenantParam, response: { 200: NotificationPreferencesResponse, ...errors } },
    },
    async (req) => getNotificationPreferences(db, req.tenantContext),
  );

  r.put(
    '/api/tenants/:tenantId/notification-preferences',
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['profile'], params: TenantParam, body: NotificationPreferencesBody, response: { 200: NotificationPreferencesResponse, ...errors } },
    },
    async (req) => saveNotificationPreferences(db, req.tenantContext, req.body),
  );

  r.get('/api/userTokens', { onRequest: signedIn, schema: { tags: ['profile'], response: { 200: UserTokens, ...errors } } }, async (req) => describeUserTokens(db, requireUser(req).id));

  r.post('/api/userTokens', { onRequest: signedIn, schema: { tags: ['profile'], body: PushSubscriptionBody, response: { 200: UserTokens, ...errors } } }, async (req) => {
    const user = requireUser(req);
    const { endpoint, keys } = req.body.token;
    await upsertPushToken(db, user.id, deps.config.pushAllowedHosts, { endpoint, p256dh: keys.p256dh, auth: keys.auth, userAgent: req.headers['user-agent']?.slice(0, 300) ?? null }, now());
    return describeUserTokens(db, user.id);
  });

  r.delete(
    '/api/userTokens',
    { onRequest: signedIn, schema: { tags: ['profile'], querystring: RemovePushSubscriptionQuery, response: { 200: UserTokens, ...errors } } },
    async (req) => {
      const user = requireUser(req);
      await removePushToken(db, user.id, req.query.endpoint);
      return describeUserTokens(db, user.id);
    },
  );

  r.post('/api/profile/testPage', { onRequest: signedIn, schema: { tags: ['profile'], body: TestPageBody, response: { 200: TestPageResult, ...errors } } }, async (req) =>
    sendTestPage({ notifier: app.notifications.notifier, publicUrl: deps.config.publicUrl }, requireUser(req), req.body.channel),
  );

  r.get(
    '/api/profile/pushSubscription',
    { onRequest: signedIn, schema: { tags: ['profile'], querystring: PushSubscriptionStatusQuery, response: { 200: PushSubscriptionStatus, ...errors } } },
    async (req) => pushSubscriptionStatus(db, requireUser(req).id, req.query.endpoint),
  );

  r.get('/api/profile/notificationRules', { onRequest: signedIn, schema: { tags: ['profile'], response: { 200: NotificationRulesResponse, ...errors } } }, async (req) =>
    getNotificationRules(db, requireUser(req).id),
  );

  r.put(
    '/api/profile/notificationRules',
    { onRequest: signedIn, schema: { tags: ['profile'], body: NotificationRulesBody, response: { 200: NotificationRulesResponse, ...errors } } },
    async (req) => saveNotificationRules(db, requireUser(req).id, req.body),
  );
}
