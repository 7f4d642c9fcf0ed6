import type { PendingInvitation } from '../../../contract/auth.ts';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { unsafeListPendingInvitationsForEmail } from './members.repository.ts';

/** Invitations with a live link waiting for the signed-in user's email, shown after sign-in (part of GET /api/me). */
export async function pendingInvitationsFor(db: DB, user: { email: string }): Promise<PendingInvitation[]> {
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
