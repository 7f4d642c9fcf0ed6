import type { DB } from '../../db/database.ts';
import type { TenantMembersTable } from '../../db/schema.ts';

/** Member rows with the account's current name (members who joined) and, for invitations, the live link's expiry. */
function memberSelect(db: DB, tenantId: string) {
  return db
    .selectFrom('tenant_members as m')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.id',
      'm.tenant_id',
      'm.user_id',
      'm.email',
      'm.role',
      'm.status',
      'm.joined_at',
      'm.invited_by',
      'm.created_at',
      (eb) => eb.fn.coalesce('u.display_name', 'm.display_name').as('display_name'),
      (eb) =>
        eb
          .selectFrom('member_invitations as i')
          .select((ib) => ib.fn.max('i.expires_at').as('e'))
          .whereRef('i.member_id', '=', 'm.id')
          .where('i.tenant_id', '=', tenantId)
          .where('i.used_at', 'is', null)
          .as('invitation_expires_at'),
    ])
    .where('m.tenant_id', '=', tenantId);
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

export async function listMembers(db: DB, tenantId: string, opts: { page: number; pageSize: number }) {
  const [items, total] = await Promise.all([
    memberSelect(db, tenantId)
      // Members before invitations, then in the order they came.
      .orderBy('m.status')
      .orderBy('m.created_at')
      .orderBy('m.id')
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize)
      .execute(),
    countSeats(db, tenantId),
  ]);
  return { items, total };
}

export async function findMember(db: DB, tenantId: string, memberId: string) {
  return memberSelect(db, tenantId).where('m.id', '=', memberId).executeTakeFirst();
}

/** Members plus pending invitations: what counts against the tenant's maxUsers. */
export async function countSeats(db: DB, tenantId: string) {
  const row = await db.selectFrom('tenant_members').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Any member row (active or invited) of the tenant with this email, compared case-insensitively. */
export async function findMemberByEmail(db: DB, tenantId: string, email: string) {
  return db
    .selectFrom('tenant_members')
    .select(['id', 'status'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb(eb.fn<string>('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/**
 * Takes the tenant's row lock (PostgreSQL) or the write lock (SQLite) for the rest of the transaction, so two
 * invitations cannot both pass the user-limit check. The update changes nothing.
 */
export async function lockTenant(trx: DB, tenantId: string) {
  await trx
    .updateTable('tenants')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', tenantId)
    .execute();
}

export async function insertMember(trx: DB, row: TenantMembersTable) {
  await trx.insertInto('tenant_members').values(row).execute();
}

export async function insertInvitationToken(trx: DB, row: { token_hash: string; tenant_id: string; member_id: string; created_at: string; expires_at: string }) {
  await trx
    .insertInto('member_invitations')
    .values({ ...row, used_at: null })
    .execute();
}

/** Spends every unused link of an invitation (a resend replaces the old link; an accept uses it up). */
export async function spendInvitationTokens(trx: DB, tenantId: string, memberId: string, at: string) {
  await trx.updateTable('member_invitations').set({ used_at: at }).where('tenant_id', '=', tenantId).where('member_id', '=', memberId).where('used_at', 'is', null).execute();
}

export async function setMemberRole(db: DB, tenantId: string, memberId: string, role: 'user' | 'admin') {
  await db.updateTable('tenant_members').set({ role }).where('tenant_id', '=', tenantId).where('id', '=', memberId).execute();
}

/** Removes the member row (its invitation links go with it) and the member's alert subscriptions in this tenant. */
export async function deleteMember(trx: DB, tenantId: string, member: { id: string; user_id: string | null }) {
  await trx.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('id', '=', member.id).execute();
  if (member.user_id) {
    await trx.deleteFrom('alert_subscriptions').where('tenant_id', '=', tenantId).where('user_id', '=', member.user_id).execute();
  }
}

/** Turns an invitation into a membership of the given account. Returns false when it was no longer pending. */
export async function activateMember(trx: DB, tenantId: string, memberId: string, user: { id: string; display_name: string }, at: string) {
  const res = await trx
    .updateTable('tenant_members')
    .set({ status: 'active', user_id: user.id, display_name: user.display_name, joined_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', memberId)
    .where('status', '=', 'invited')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * The invitation behind a link, whatever its tenant: the token is the only key the public link carries. Only a
 * live link (unused, unexpired) of a still-pending invitation is found.
 */
export async function unsafeFindLiveInvitation(db: DB, tokenHash: string, at: string) {
  return db
    .selectFrom('member_invitations as i')
    .innerJoin('tenant_members as m', 'm.id', 'i.member_id')
    .innerJoin('tenants as t', 't.id', 'i.tenant_id')
    .leftJoin('users as inviter', 'inviter.id', 'm.invited_by')
    .select([
      'i.token_hash',
      'i.tenant_id',
      'i.member_id',
      'i.expires_at',
      'm.email',
      'm.role',
      't.name as tenant_name',
      'inviter.display_name as invited_by_name',
    ])
    .where('i.token_hash', '=', tokenHash)
    .where('i.used_at', 'is', null)
    .where('i.expires_at', '>', at)
    .where('m.status', '=', 'invited')
    .executeTakeFirst();
}

/** Spends one link if it is still live; returns its tenant and member, or undefined (already used, expired, unknown). */
export async function consumeInvitationToken(trx: DB, tokenHash: string, at: string) {
  return trx
    .updateTable('member_invitations')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning(['tenant_id', 'member_id'])
    .executeTakeFirst();
}

/**
 * Pending invitations addressed to an email in every tenant, with a live link (so an expired invitation is not
 * offered). Unscoped on purpose: it is how a signed-in invitee sees invitations of tenants they are not in yet.
 */
export async function unsafeListPendingInvitationsForEmail(db: DB, email: string, at: string, memberId?: string) {
  let q = db
    .selectFrom('tenant_members as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .leftJoin('users as inviter', 'inviter.id', 'm.invited_by')
    .select(['m.id', 'm.tenant_id', 'm.role', 'm.created_at', 't.name as tenant_name', 'inviter.display_name as invited_by_name'])
    .where('m.email', '=', email.toLowerCase())
    .where('m.status', '=', 'invited')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('member_invitations as i')
          .select('i.token_hash')
          .whereRef('i.member_id', '=', 'm.id')
          .where('i.used_at', 'is', null)
          .where('i.expires_at', '>', at),
      ),
    )
    .orderBy('m.created_at');
  if (memberId) q = q.where('m.id', '=', memberId);
  return q.execute();
}

/** A pending invitation by id for the account with that email (the after-sign-in banner), if its link is live. */
export async function unsafeFindPendingInvitationForEmail(db: DB, memberId: string, email: string, at: string) {
  return (await unsafeListPendingInvitationsForEmail(db, email, at, memberId))[0];
}
