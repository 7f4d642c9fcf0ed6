import type { DB } from '../../db/database.ts';

/** Stores an invitation's emailed link by its token's hash (single use, until `expires_at`). */
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

/**
 * Spends one link if it is still live, whatever its tenant (the token is what the public link carries); returns its
 * tenant and member, or undefined (already used, expired, unknown).
 */
export async function unsafeConsumeInvitationToken(trx: DB, tokenHash: string, at: string) {
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
