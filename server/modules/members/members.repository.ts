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

/**
 * Active members of a tenant who have an account (id, display name, email), by name: who can be assigned an alert,
 * put on call or paged. `userIds` narrows it to those people (the ones of them still active members).
 */
export async function listActiveMemberAccounts(db: DB, tenantId: string, userIds?: string[]) {
  if (userIds && userIds.length === 0) return [];
  return db
    .selectFrom('tenant_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.display_name', 'u.email'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.status', '=', 'active')
    .$if(userIds !== undefined, (qb) => qb.where('u.id', 'in', userIds!))
    .orderBy('u.display_name')
    .orderBy('u.email')
    .execute();
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

export async function insertMember(trx: DB, row: TenantMembersTable) {
  await trx.insertInto('tenant_members').values(row).execute();
}

export async function setMemberRole(db: DB, tenantId: string, memberId: string, role: 'user' | 'admin') {
  await db.updateTable('tenant_members').set({ role }).where('tenant_id', '=', tenantId).where('id', '=', memberId).execute();
}

/** Removes the member row; its invitation links go with it (`on delete cascade`). */
export async function deleteMember(db: DB, tenantId: string, memberId: string) {
  await db.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('id', '=', memberId).execute();
}

/**
 * The alert subscriptions (profile page) a removed member had in this tenant: leaving the tenant ends them. Deleted
 * here, in the removal's transaction, rather than through the profile module, which itself builds on members.
 */
export async function deleteMemberAlertSubscriptions(trx: DB, tenantId: string, userId: string) {
  await trx.deleteFrom('alert_subscriptions').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
}

/** The member row behind an invitation link, with its tenant's name. */
export async function findMemberWithTenantName(db: DB, tenantId: string, memberId: string) {
  return db
    .selectFrom('tenant_members as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .select(['m.id', 'm.email', 'm.status', 't.id as tenant_id', 't.name as tenant_name'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.id', '=', memberId)
    .executeTakeFirst();
}

/** Member rows carry a copy of the account's name for other modules' lists: a rename updates it in every tenant. */
export async function unsafeRenameUserMemberships(db: DB, userId: string, displayName: string) {
  await db.updateTable('tenant_members').set({ display_name: displayName }).where('user_id', '=', userId).execute();
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
