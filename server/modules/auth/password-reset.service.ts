import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import { badRequest } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import { findUserByEmail, setPasswordHash } from '../users/users.service.ts';
import { hashPassword } from '../../lib/password.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { consumePasswordReset, insertPasswordReset, spendPasswordResets } from './password-resets.repository.ts';
import { deleteUserSessions } from './sessions.repository.ts';

export const RESET_TTL_MS = 3600_000;
// At most 5 reset mails per address an hour, so the form cannot be used to flood a mailbox.
const mailsPerAddress = new WindowCounter(5, 3600_000);

/** Mails a single-use reset link when the account exists; answers the same either way (no account enumeration). */
export async function requestPasswordReset(deps: Deps, email: string) {
  const user = await findUserByEmail(deps.db, email);
  if (!user || mailsPerAddress.blockedFor(email) > 0) return;
  mailsPerAddress.hit(email);
  const { token, hash } = newToken();
  await insertPasswordReset(deps.db, { tokenHash: hash, userId: user.id, at: new Date(), ttlMs: RESET_TTL_MS });
  const link = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Reset your Alertdesk password',
    text: `Hello ${user.display_name},\n\nSomeone asked to reset the password of your Alertdesk account. Open this link within one hour to choose a new password:\n\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.\n`,
  });
}

/** Sets a new password from a reset link; every open link of the account is spent and every session of the account ends. */
export async function confirmPasswordReset(deps: Deps, token: string, password: string) {
  const passwordHash = await hashPassword(password);
  const at = now();
  const userId = await deps.db.transaction().execute(async (trx) => {
    const owner = await consumePasswordReset(trx, hashToken(token), at);
    if (!owner) return null;
    // Every other open link of the account (older reset mails, a set-password link) is void from now on.
    await spendPasswordResets(trx, owner, at);
    // The link came by mail: following it proves the mailbox.
    await setPasswordHash(trx, owner, passwordHash, at, { emailVerified: true });
    return owner;
  });
  if (!userId) throw badRequest(OWN_MSG.resetLinkInvalid, { token: OWN_MSG.resetLinkInvalid });
  await deleteUserSessions(deps.db, userId);
  deps.bus.revokeAccess({ userId });
}

export const SET_PASSWORD_TTL_MS = 7 * 24 * 3600_000;

/**
 * Mails an account created by a super admin a single-use link to choose its first password. It is a reset token
 * (same table, same confirm endpoint), valid for a week because the person did not ask for it and may read it late.
 */
export async function sendSetPasswordEmail(deps: Deps, user: { id: string; email: string; display_name: string }) {
  const { token, hash } = newToken();
  await insertPasswordReset(deps.db, { tokenHash: hash, userId: user.id, at: new Date(), ttlMs: SET_PASSWORD_TTL_MS });
  const link = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&welcome=1`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Set your Alertdesk password',
    text: `Hello ${user.display_name},\n\nAn Alertdesk account has been created for you. Open this link within 7 days to choose your password:\n\n${link}\n\nAfterwards, sign in at ${deps.config.publicUrl}/login with this email address.\n`,
  });
}

// A password changed on the profile page voids every open reset link of the account too.
export { spendPasswordResets } from './password-resets.repository.ts';
