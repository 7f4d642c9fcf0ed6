import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '../../../contract/messages.ts';
import { INVITATION_TTL_DAYS, MEMBERS_MSG, userLimitReached, type AssignableRole, type TenantMember } from '../../../contract/members.ts';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, forbidden, notFound, tooMany } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { isUniqueViolation } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/password.ts';
import { hashToken, newToken } from '../auth/sessions.repository.ts';
import { findPlan } from '../pricing/pricing-plans.repository.ts';
import { findTenant } from '../tenants/tenants.repository.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { isOwnerMember, memberAbilities, memberChangeRefusal } from './members.policy.ts';
import {
  activateMember,
  consumeInvitationToken,
  countSeats,
  deleteMember,
  findMember,
  findMemberByEmail,
  insertInvitationToken,
  insertMember,
  listMembers,
  lockTenant,
  setMemberRole,
  spendInvitationTokens,
  unsafeFindLiveInvitation,
  unsafeFindPendingInvitationForEmail,
  type MemberRow,
} from './members.repository.ts';

export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600_000;
// At most 5 invitation mails per pending invitation an hour, so Resend cannot flood a mailbox.
const mailsPerInvitation = new WindowCounter(5, 3600_000);

const invalidLink = () => new AppError(404, 'invitation_invalid', MEMBERS_MSG.invitationInvalid);
const memberNotFound = () => notFound(MSG.userNotFoundInTenant);
const alreadyMember = () => conflict(MSG.userAlreadyInTenant, { email: MSG.userAlreadyInTenant });

/** A member row as Tenant Administration shows it to the caller. */
export function presentMember(ctx: TenantContext, row: MemberRow): TenantMember {
  const role = isOwnerMember(ctx.tenant, row) ? 'owner' : row.role;
  const invited = row.status === 'invited';
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name ?? row.email,
    role,
    status: row.status,
    joinedAt: row.joined_at,
    invitedAt: row.created_at,
    invitationExpiresAt: invited ? (row.invitation_expires_at ?? null) : null,
    isSelf: row.user_id === ctx.user.id,
    abilities: memberAbilities({ userId: ctx.user.id, role: ctx.role }, ctx.tenant, row),
  };
}

export async function listTenantMembers(db: DB, ctx: TenantContext, opts: { page: number; pageSize: number }) {
  const { items, total } = await listMembers(db, ctx.tenant.id, opts);
  return { items: items.map((r) => presentMember(ctx, r)), total, page: opts.page, pageSize: opts.pageSize };
}

export async function tenantDetails(db: DB, ctx: TenantContext) {
  const [plan, seatsUsed] = await Promise.all([findPlan(db, ctx.tenant.plan), countSeats(db, ctx.tenant.id)]);
  return {
    id: ctx.tenant.id,
    name: ctx.tenant.name,
    plan: ctx.tenant.plan,
    planName: plan?.name ?? null,
    maxUsers: ctx.tenant.max_users,
    maxClients: ctx.tenant.max_clients,
    createdAt: ctx.tenant.created_at,
    seatsUsed,
  };
}

async function loadMember(db: DB, ctx: TenantContext, memberId: string) {
  const member = await findMember(db, ctx.tenant.id, memberId);
  if (!member) throw memberNotFound();
  return member;
}

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
  const email = input.email.toLowerCase();
  const tenantId = ctx.tenant.id;
  const { token, hash } = newToken();
  const memberId = randomUUID();
  const at = new Date();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await lockTenant(trx, tenantId);
      if (await findMemberByEmail(trx, tenantId, email)) throw alreadyMember();
      const tenant = await findTenant(trx, tenantId);
      if (!tenant) throw notFound();
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

/** Role change of a member or of a pending invitation; never an owner's, never one's own. Effective on the next request. */
export async function changeMemberRole(db: DB, ctx: TenantContext, memberId: string, role: AssignableRole) {
  const member = await loadMember(db, ctx, memberId);
  const refusal = memberChangeRefusal({ userId: ctx.user.id, role: ctx.role }, ctx.tenant, member, 'edit');
  if (refusal) throw forbidden(refusal);
  await setMemberRole(db, ctx.tenant.id, member.id, role);
  return presentMember(ctx, await loadMember(db, ctx, memberId));
}

/**
 * Removes a member (their very next request to this tenant answers 404) or revokes a pending invitation (its link
 * stops working). Owners and oneself are refused.
 */
export async function removeMember(db: DB, ctx: TenantContext, memberId: string) {
  const member = await loadMember(db, ctx, memberId);
  const refusal = memberChangeRefusal({ userId: ctx.user.id, role: ctx.role }, ctx.tenant, member, 'remove');
  if (refusal) throw forbidden(refusal);
  await db.transaction().execute((trx) => deleteMember(trx, ctx.tenant.id, member));
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
  const spent = await consumeInvitationToken(trx, hashToken(token), at);
  if (!spent) throw invalidLink();
  const member = await trx
    .selectFrom('tenant_members as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .select(['m.id', 'm.email', 'm.status', 't.id as tenant_id', 't.name as tenant_name'])
    .where('m.tenant_id', '=', spent.tenant_id)
    .where('m.id', '=', spent.member_id)
    .executeTakeFirst();
  if (!member || member.status !== 'invited') throw invalidLink();
  // The link was mailed to one address: only the account with that address may use it.
  if (member.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden(MEMBERS_MSG.invitationOtherEmail);
  await spendInvitationTokens(trx, member.tenant_id, member.id, at);
  if (!(await activateMember(trx, member.tenant_id, member.id, user, at))) throw invalidLink();
  // Following a link mailed to the address proves the mailbox.
  await trx.updateTable('users').set({ email_verified_at: at }).where('id', '=', user.id).where('email_verified_at', 'is', null).execute();
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
  const user = {
    id: randomUUID(),
    email: live.email.toLowerCase(),
    display_name: input.displayName,
    password_hash: passwordHash,
    role: 'user' as const,
    plan: null,
    oidc_subject: null,
    created_at: at,
    updated_at: at,
    last_sign_in_at: at,
    email_verified_at: at,
  };
  try {
    const joined = await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      return joinWithToken(trx, token, user, at);
    });
    return { userId: user.id, ...joined };
  } catch (e) {
    if (isUniqueViolation(e)) throw accountExists();
    throw e;
  }
}

/** Declines from the link: the pending invitation is removed, its link stops working. */
export async function declineInvitationWithToken(db: DB, token: string) {
  const live = await unsafeFindLiveInvitation(db, hashToken(token), now());
  if (!live) throw invalidLink();
  await db.transaction().execute((trx) => deleteMember(trx, live.tenant_id, { id: live.member_id, user_id: null }));
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
  await db.transaction().execute((trx) => deleteMember(trx, inv.tenant_id, { id: inv.id, user_id: null }));
}

/**
 * Answering an invitation without its link needs an account that has proven it reads the invited mailbox: we do not
 * verify addresses at sign-up, so whoever registered someone else's address must not be able to take their seat.
 */
function requireVerifiedEmail(user: UsersTable) {
  if (!user.email_verified_at) throw forbidden(MEMBERS_MSG.verifyByLink);
}
