import { MSG } from '../../../contract/messages.ts';
import { PROFILE_MSG, type AlertSubscription, type NotificationPreferences, type NotificationPreferencesResponse, type UpdateProfileBody } from '../../../contract/profile.ts';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, badRequest, tooMany, unauthorized } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { spendPasswordResets } from '../auth/password-reset.service.ts';
import { deleteUserSessions } from '../auth/sessions.service.ts';
import { unsafeRenameUserMemberships } from '../members/members.service.ts';
import { findUserById, setDisplayName, setPasswordHash, setTimeZone, toPublicUser } from '../users/users.service.ts';
import { existingClientIds } from '../clients/clients.service.ts';
import { deletePushToken, findPreferences, listPushTokens, savePushToken, trimPushTokens, upsertPreferences } from '../../notifications/contacts.repository.ts';
import { toChannelPreferences } from '../../notifications/preferences.ts';
import { refusedHost } from '../../notifications/public-address.ts';
import { listSubscriptions, replaceSubscriptions } from './profile.repository.ts';
import { storedTimeZone } from './time-zone.ts';

// Wrong current passwords per account: guessing through a stolen session is slowed like sign-in is.
const wrongPasswords = new WindowCounter(5, 15 * 60_000);

/**
 * Sets what is given of the display name (on the account and on its memberships) and the time zone; the email is
 * read-only. Everything is checked before anything is written, so a refused request changes nothing.
 */
export async function updateProfile(db: DB, user: SessionUser, input: UpdateProfileBody) {
  if (input.email !== undefined && input.email.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw badRequest(MSG.emailCannotChange, { email: MSG.emailCannotChange });
  }
  const timeZone = input.timeZone === undefined ? undefined : storedTimeZone(input.timeZone);
  if (timeZone === null) throw badRequest(PROFILE_MSG.timeZoneInvalid, { timeZone: PROFILE_MSG.timeZoneInvalid });
  const at = now();
  await db.transaction().execute(async (trx) => {
    if (input.displayName !== undefined) {
      await setDisplayName(trx, user.id, input.displayName, at);
      await unsafeRenameUserMemberships(trx, user.id, input.displayName);
    }
    if (timeZone !== undefined) await setTimeZone(trx, user.id, timeZone, at);
  });
  const fresh = await findUserById(db, user.id);
  if (!fresh) throw unauthorized();
  return { user: toPublicUser(fresh) };
}

/**
 * Changes the password after checking the current one, then ends every other session of the account: whoever else
 * was signed in must sign in again with the new password. The session in use stays.
 */
export async function changePassword(db: DB, user: SessionUser, input: { currentPassword: string; newPassword: string }) {
  if (!user.password_hash) throw badRequest(PROFILE_MSG.noPasswordYet, { currentPassword: PROFILE_MSG.noPasswordYet });
  const wait = wrongPasswords.blockedFor(user.id);
  if (wait > 0) throw tooMany(PROFILE_MSG.tooManyPasswordAttempts, wait);
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    wrongPasswords.hit(user.id);
    throw new AppError(400, 'wrong_password', PROFILE_MSG.currentPasswordWrong, { currentPassword: PROFILE_MSG.currentPasswordWrong });
  }
  wrongPasswords.reset(user.id);
  const passwordHash = await hashPassword(input.newPassword);
  const at = now();
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, passwordHash, at);
    // Reset links mailed before the change must not undo it.
    await spendPasswordResets(trx, user.id, at);
  });
  await deleteUserSessions(db, user.id, user.token_hash);
}

/** The caller's preferences in this tenant: their channel settings (defaults if never saved) and subscriptions here. */
export async function getNotificationPreferences(db: DB, ctx: TenantContext): Promise<NotificationPreferencesResponse> {
  const [row, alertSubscriptions] = await Promise.all([findPreferences(db, ctx.user.id), listSubscriptions(db, ctx.tenant.id, ctx.user.id)]);
  return { ...toChannelPreferences(row), alertSubscriptions, updatedAt: row?.updated_at ?? null };
}

const subscriptionKey = (s: AlertSubscription) => (s.type === 'client' ? `client:${s.id}` : `${s.type}:${s.value}`);

/** Saves channel settings and this tenant's subscriptions together; every client must be a client of this tenant. */
export async function saveNotificationPreferences(db: DB, ctx: TenantContext, input: NotificationPreferences) {
  const seen = new Set<string>();
  const subs = input.alertSubscriptions.filter((s) => {
    const k = subscriptionKey(s);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const clientIds = subs.flatMap((s) => (s.type === 'client' ? [s.id] : []));
  const known = await existingClientIds(db, ctx.tenant.id, clientIds);
  const unknown = input.alertSubscriptions.findIndex((s) => s.type === 'client' && !known.has(s.id));
  if (unknown >= 0) throw badRequest(MSG.clientNotFound, { [`alertSubscriptions.${unknown}.id`]: MSG.clientNotFound });
  const at = now();
  await db.transaction().execute(async (trx) => {
    await upsertPreferences(trx, ctx.user.id, { ...input, sms: { ...input.sms, alertTypes: [...new Set(input.sms.alertTypes)] } }, at);
    await replaceSubscriptions(trx, ctx.tenant.id, ctx.user.id, subs, at);
  });
  return getNotificationPreferences(db, ctx);
}

/** Saves a browser's push subscription under the user (a browser that changed hands moves); only the most recent MAX_PUSH_TOKENS_PER_USER are kept. */
export async function upsertPushToken(db: DB, userId: string, allowedHosts: readonly string[], sub: { endpoint: string; p256dh: string; auth: string; userAgent: string | null }, at: string) {
  // Pages POST to this URL: a host that is no public address is refused here already (and again when sending).
  if (refusedHost(allowedHosts, new URL(sub.endpoint).hostname)) throw badRequest(PROFILE_MSG.pushEndpointNotPublic, { 'token.endpoint': PROFILE_MSG.pushEndpointNotPublic });
  await db.transaction().execute(async (trx) => {
    await savePushToken(trx, userId, sub, at);
    await trimPushTokens(trx, userId);
  });
}

/** The userTokens record: the user's push subscriptions, endpoints only. */
export async function describeUserTokens(db: DB, userId: string) {
  const rows = await listPushTokens(db, userId);
  const created = rows.map((r) => r.created_at).sort();
  const updated = rows.map((r) => r.updated_at).sort();
  return {
    userId,
    tokens: rows.map((r) => ({ endpoint: r.endpoint, createdAt: r.created_at, updatedAt: r.updated_at })),
    createdAt: created[0] ?? null,
    updatedAt: updated[updated.length - 1] ?? null,
  };
}

/** Forgets a browser's push subscription (the browser unsubscribed). */
export async function removePushToken(db: DB, userId: string, endpoint: string) {
  await deletePushToken(db, userId, endpoint);
}
