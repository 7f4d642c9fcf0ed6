import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PendingInvitation } from '../../../contract/auth.ts';
import { MSG } from '../../../contract/messages.ts';
import { INVITATION_TTL_DAYS, MEMBERS_MSG, userLimitReached, type AssignableRole } from '../../../contract/members.ts';
import type { DB } from '../../db/database.ts';
import { isUniqueViolation, now } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, forbidden, notFound, tooMany } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { hashPassword } from '../../lib/password.ts';
import { lockTenant } from '../tenants/tenants.service.ts';
import { createUser, findUserByEmail, markEmailVerified } from '../users/users.service.ts';
import {
  insertInvitationToken,
  spendInvitationTokens,
  unsafeConsumeInvitationToken,
  unsafeFindLiveInvitation,
  unsafeFindPendingInvitationForEmail,
  unsafeListPendingInvitationsForEmail,
} from './invitations.repository.ts';
import { activateMember, countSeats, deleteMember, findMemberByEmail, findMemberWithTenantName, insertMember } from './members.repository.ts';
import { loadMember, presentMember } from './members.service.ts';

export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600_000;
// At most 5 invitation mails per pending invitation an hour, so Resend cannot flood a mailbox.
const mailsPerInvitation = new WindowCounter(5, 3600_000);

const invalidLink = () => new AppError(404, 'invitation_invalid', MEMBERS_MSG.invitationInvalid);
const alreadyMember = () => conflict(MSG.userAlreadyInTenant, { email: MSG.userAlreadyInTenant });

/** Mails the invitation link; a mail failure is logged and reported, the invitation itself stays (Resend retries). */
async function sendInvitationEmail(
  deps: Deps,
  log: FastifyBaseLogger,
  input: { to: string; token: string; tenantName: string; inviterName: string; role: AssignableRole },
): Promise<boolean> {
  const link = `${deps.config.publicUrl}/invitations/${encodeURIComponent(input.token)}`;
  const tenantName = input.tenantName.replace(/[\r\n]+/g, ' ');
  const roleName = input.role === 'admin' ? 'Admin' : 'User';
  try {
    await deps.mailer.send({
      to: input.to,
      subject: `You're invited to join ${tenantName} on Alertdesk`,
      text:
        `Hello,\n\n${input.inviterName} invited you to join ${tenantName} on Alertdesk as ${roleName}.\n\n` +
        `Open this link within ${INVITATION_TTL_DAYS} days to accept the invitation:\n\n${link}\n\n` +
        `If you already have an Alertdesk account, sign in with ${input.to} to join. Otherwise you will choose your name and a password.\n\n` +
        `If you were not expecting this invitation, you can ignore this email.\n`,
    });
    return true;
  } catch (err) {
    log.error({ err, to: input.to }, 'invitation email could not be sent');
    return false;
  }
}

/**
 * Invites an email into the tenant with a role: an 'invited' member row and a single-use link valid 7 days, mailed.
 * Refused when the email is already a member or invited (case-insensitive) and when the tenant's seats are full.
 */
export async function inviteMember(deps: Deps, log: FastifyBaseLogger, ctx: TenantContext, input: { email: string; role: AssignableRole }) {
  authorize(ctx, 'manageMembers');
  const email = input.email.toLowerCase();
  const tenantId = ctx.tenant.id;
  const { token, hash } = newToken();
  const memberId = randomUUID();
  const at = new Date();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const tenant = await lockTenant(trx, tenantId);
      if (!tenant) throw notFound();
      if (await findMemberByEmail(trx, tenantId, email)) throw alreadyMember();
      if ((await countSeats(trx, tenantId)) >= tenant.max_users) {
        throw new AppError(409, 'user_limit_reached', userLimitReached(tenant.max_users), { email: userLimitReached(tenant.max_users) });
      }
      await insertMember(trx, {
        id: memberId,
        tenant_id: tenantId,
        user_id: null,
        email,
        display_name: email,
        role: input.role,
        status: 'invited',
        joined_at: null,
        invited_by: ctx.user.id,
        created_at: at.toISOString(),
      });
      await insertInvitationToken(trx, {
        token_hash: hash,
        tenant_id: tenantId,
        member_id: memberId,
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + INVITATION_TTL_MS).toISOString(),
      });
    });
  } catch (e) {
    // Two invitations of the same address at once: the unique (tenant, email) index lets only one in.
    if (isUniqueViolation(e)) throw alreadyMember();
    throw e;
  }
  mailsPerInvitation.hit(memberId);
  const emailSent = await sendInvitationEmail(deps, log, { to: email, token, tenantName: ctx.tenant.name, inviterName: ctx.user.display_name, role: input.role });
  return { member: presentMember(ctx, await loadMember(deps.db, ctx, memberId)), emailSent };
}

/** A new link for a pending invitation (the old one stops working), valid 7 days from now, mailed again. */
export async function resendInvitation(deps: Deps, log: FastifyBaseLogger, ctx: TenantContext, memberId: string) {
  authorize(ctx, 'manageMembers');
  const member = await loadMember(deps.db, ctx, memberId);
  if (member.status !== 'invited') throw conflict(MEMBERS_MSG.notInvited);
  const wait = mailsPerInvitation.blockedFor(member.id);
  if (wait > 0) throw tooMany(MEMBERS_MSG.tooManyResends, wait);
  const { token, hash } = newToken();
  const at = new Date();
  await deps.db.transaction().execute(async (trx) => {
    await spendInvitationTokens(trx, ctx.tenant.id, member.id, at.toISOString());
    await insertInvitationToken(trx, {
      token_hash: hash,
      tenant_id: ctx.tenant.id,
      member_id: member.id,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + INVITATION_TTL_MS).toISOString(),
    });
  });
  mailsPerInvitation.hit(member.id);
  const role = member.role === 'admin' ? 'admin' : 'user';
  const emailSent = await sendInvitationEmail(deps, log, { to: member.email, token, tenantName: ctx.tenant.name, inviterName: ctx.user.display_name, role });
  return { member: presentMember(ctx, await loadMember(deps.db, ctx, memberId)), emailSent };
}

/** What the link shows: tenant, invited address and role, and whether that address already has an account. */
export async function previewInvitation(db: DB, token: string) {
  const inv = await unsafeFindLiveInvitation(db, hashToken(token), now());
  if (!inv) throw invalidLink();
  const account = await findUserByEmail(db, inv.email);
  return {
    tenantName: inv.tenant_name,
    email: inv.email,
    role: inv.role === 'admin' ? ('admin' as const) : ('user' as const),
    invitedByName: inv.invited_by_name ?? null,
    expiresAt: inv.expires_at,
    accountExists: !!account,
  };
}

/** Spends the link and makes the invited row a membership of `user`, in the caller's transaction. */
async function joinWithToken(trx: DB, token: string, user: { id: string; email: string; display_name: string }, at: string) {
  const spent = await unsafeConsumeInvitationToken(trx, hashToken(token), at);
  if (!spent) throw invalidLink();
  const member = await findMemberWithTenantName(trx, spent.tenant_id, spent.member_id);
  if (!member || member.status !== 'invited') throw invalidLink();
  // The link was mailed to one address: only the account with that address may use it.
  if (member.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden(MEMBERS_MSG.invitationOtherEmail);
  await spendInvitationTokens(trx, member.tenant_id, member.id, at);
  if (!(await activateMember(trx, member.tenant_id, member.id, user, at))) throw invalidLink();
  // Following a link mailed to the address proves the mailbox.
  await markEmailVerified(trx, user.id, at);
  return { tenantId: member.tenant_id, tenantName: member.tenant_name };
}

/** A signed-in person accepts from the emailed link. */
export async function acceptInvitationWithToken(db: DB, token: string, user: UsersTable) {
  return db.transaction().execute((trx) => joinWithToken(trx, token, user, now()));
}

/** A person without an account joins from the link: the account (the invited address, their name and password) and the membership, in one transaction. */
export async function registerFromInvitation(db: DB, token: string, input: { displayName: string; password: string }) {
  const live = await unsafeFindLiveInvitation(db, hashToken(token), now());
  if (!live) throw invalidLink();
  const accountExists = () => conflict(MEMBERS_MSG.accountExists);
  if (await findUserByEmail(db, live.email)) throw accountExists();
  const passwordHash = await hashPassword(input.password);
  const at = now();
  try {
    const joined = await db.transaction().execute(async (trx) => {
      // Following the mailed link proves the mailbox; the new account is signed in at once.
      const user = await createUser(trx, { email: live.email, displayName: input.displayName, passwordHash, lastSignInAt: at, emailVerifiedAt: at }, at);
      return { userId: user.id, ...(await joinWithToken(trx, token, user, at)) };
    });
    return joined;
  } catch (e) {
    if (isUniqueViolation(e)) throw accountExists();
    throw e;
  }
}

/** Declines from the link: the pending invitation is removed, its link stops working. */
export async function declineInvitationWithToken(db: DB, token: string) {
  const live = await unsafeFindLiveInvitation(db, hashToken(token), now());
  if (!live) throw invalidLink();
  await deleteMember(db, live.tenant_id, live.member_id);
}

/** Accepts, without the link, an invitation addressed to the signed-in user's email. */
export async function acceptPendingInvitation(db: DB, user: UsersTable, memberId: string) {
  const at = now();
  return db.transaction().execute(async (trx) => {
    const inv = await unsafeFindPendingInvitationForEmail(trx, memberId, user.email, at);
    if (!inv) throw invalidLink();
    requireVerifiedEmail(user);
    await spendInvitationTokens(trx, inv.tenant_id, inv.id, at);
    if (!(await activateMember(trx, inv.tenant_id, inv.id, user, at))) throw invalidLink();
    return { tenantId: inv.tenant_id, tenantName: inv.tenant_name };
  });
}

export async function declinePendingInvitation(db: DB, user: UsersTable, memberId: string) {
  const inv = await unsafeFindPendingInvitationForEmail(db, memberId, user.email, now());
  if (!inv) throw invalidLink();
  requireVerifiedEmail(user);
  await deleteMember(db, inv.tenant_id, inv.id);
}

/**
 * Answering an invitation without its link needs an account that has proven it reads the invited mailbox: we do not
 * verify addresses at sign-up, so whoever registered someone else's address must not be able to take their seat.
 */
function requireVerifiedEmail(user: UsersTable) {
  if (!user.email_verified_at) throw forbidden(MEMBERS_MSG.verifyByLink);
}

/**
 * Invitations with a live link waiting for the signed-in user's email, shown after sign-in (part of GET /api/me).
 * Only for an address the account has proven (sign-up does not verify addresses): anyone may register with an
 * invitee's address, and must not learn the tenant, the inviter and the role from it. Until then the emailed link
 * is the way in.
 */
export async function pendingInvitationsFor(db: DB, user: { email: string; email_verified_at?: string | null }): Promise<PendingInvitation[]> {
  if (!user.email_verified_at) return [];
  const rows = await unsafeListPendingInvitationsForEmail(db, user.email, now());
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenant_id,
    tenantName: r.tenant_name,
    role: r.role,
    invitedByName: r.invited_by_name ?? null,
    invitedAt: r.created_at,
  }));
}
