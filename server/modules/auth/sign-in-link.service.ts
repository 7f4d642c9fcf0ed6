import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { SIGN_IN_LINK_MSG, SIGN_IN_LINK_TTL_MINUTES } from '../../../contract/messages.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { findUserByEmail, findUserById, markEmailVerified } from '../users/users.service.ts';
import { consumeSignInLink, deleteStaleSignInLinks, findSignInLink, insertSignInLink, spendSignInLinks } from './sign-in-links.repository.ts';

export const SIGN_IN_LINK_TTL_MS = SIGN_IN_LINK_TTL_MINUTES * 60_000;

/** "14:05 UTC on 2025-03-01": when a link stops working, as the mail says it. */
const utcTime = (at: Date) => `${at.toISOString().slice(11, 16)} UTC on ${at.toISOString().slice(0, 10)}`;

/**
 * Mails a one-time sign-in link when the account exists, nothing otherwise; the caller answers the same either way
 * and does not wait for this (its time would tell the two apart). Sent exactly as a password-reset mail is.
 */
export async function sendSignInLink(deps: Deps, email: string) {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const at = new Date();
  const { token, hash } = newToken();
  await deleteStaleSignInLinks(deps.db, user.id, at);
  await insertSignInLink(deps.db, { userId: user.id, tokenHash: hash, at, ttlMs: SIGN_IN_LINK_TTL_MS });
  const link = `${deps.config.publicUrl}/sign-in-link?token=${encodeURIComponent(token)}`;
  const until = utcTime(new Date(at.getTime() + SIGN_IN_LINK_TTL_MS));
  await deps.mailer.send({
    to: user.email,
    subject: 'Your Alertdesk sign-in link',
    text: `Hello ${user.display_name},\n\nSomeone asked for a link to sign in to your Alertdesk account without its password. Open this link to sign in; it works once, for ${SIGN_IN_LINK_TTL_MINUTES} minutes (until ${until}):\n\n${link}\n\nIf you did not ask for it, ignore this email: nobody can use the link without reading it. Someone may be guessing your password, though: choose a strong one on your profile page.\n`,
  });
}

type StoredLink = { used_at: string | null; expires_at: string };
const invalid = () => new AppError(404, 'sign_in_link_invalid', SIGN_IN_LINK_MSG.invalid);
const used = () => new AppError(410, 'sign_in_link_used', SIGN_IN_LINK_MSG.used);

/** Refuses a link that cannot be used: unknown 404, already used 410 (a replay), expired 400. */
function assertLive<T extends StoredLink>(link: T | undefined, at: string): asserts link is T {
  if (!link) throw invalid();
  if (link.used_at) throw used();
  if (link.expires_at <= at) throw new AppError(400, 'sign_in_link_expired', SIGN_IN_LINK_MSG.expired);
}

/** Whom a live link signs in, read without spending it (opening the link must not use it: mail scanners follow links). */
export async function previewSignInLink(deps: Deps, token: string) {
  const link = await findSignInLink(deps.db, hashToken(token));
  assertLive(link, now());
  return { email: link.email, expiresAt: link.expires_at };
}

/**
 * Spends a live link and returns its account, to be signed in by the caller. The link is spent by one conditional
 * write, so a replay or a second use at the same moment is refused; the account's other open links are spent with it,
 * and its mailbox counts as proven (the link came by mail).
 */
export async function useSignInLink(deps: Deps, token: string) {
  const tokenHash = hashToken(token);
  const at = now();
  const userId = await deps.db.transaction().execute(async (trx) => {
    const owner = await consumeSignInLink(trx, tokenHash, at);
    if (!owner) return null;
    await spendSignInLinks(trx, owner, at);
    await markEmailVerified(trx, owner, at);
    return owner;
  });
  if (!userId) {
    // Not spent by us: say why; a link that still reads live lost a race to another use of it.
    assertLive(await findSignInLink(deps.db, tokenHash), at);
    throw used();
  }
  const user = await findUserById(deps.db, userId);
  // Deleted since (its links go with it): as if the link had never been.
  if (!user) throw invalid();
  return user;
}
