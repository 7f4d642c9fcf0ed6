import type { DestinationEvent } from '../../../contract/destinations.ts';
import type { DB } from '../../db/database.ts';
import type { ApprovalRequestsTable } from '../../db/schema.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import type { ApprovalEventData } from './chat-message.ts';
import { messageIdOf, newDelivery, queueDeliveries } from './destination-delivery.ts';
import * as repo from './destinations.repository.ts';

/** The statuses that end a request by a decision (a cancelled request was withdrawn, not decided). */
const DECIDED = new Set(['approved', 'rejected', 'expired']);

/** What changed about an approval request, as the approvals service writes it. */
export interface ApprovalEventChange {
  /** The request was made by this change. */
  created: boolean;
  /** Its status once written. */
  status: string;
  /** Who made the change (null for an expiry). */
  actorId: string | null;
  /** The request's version once written: makes an event one occurrence. */
  version: number;
}

/**
 * The approval events of a change to a request (issue 29): `approval.requested` when it is made, `approval.decided`
 * when it is finally approved, rejected or expired. Each enabled destination of the tenant subscribed to the event gets
 * one delivery, written in the approvals service's transaction with its first attempt's job (a destination's filter
 * of clients and priorities is about alerts and does not apply). Returns how many were written.
 */
export async function queueApprovalEvents(trx: DB, row: Pick<ApprovalRequestsTable, 'id' | 'tenant_id' | 'type' | 'title' | 'created_by' | 'requested_by_name'>, change: ApprovalEventChange, now: Date): Promise<number> {
  const events: DestinationEvent[] = [...(change.created ? (['approval.requested'] as const) : []), ...(DECIDED.has(change.status) ? (['approval.decided'] as const) : [])];
  if (events.length === 0) return 0;
  const destinations = (await repo.listEnabledDestinations(trx, row.tenant_id)).filter((d) => events.some((e) => (JSON.parse(d.events) as string[]).includes(e)));
  if (destinations.length === 0) return 0;
  const decider = change.status === 'pending' || !change.actorId ? null : await personOf(trx, row.tenant_id, change.actorId);
  const at = now.toISOString();
  const rows = events.flatMap((event) => {
    const approval: ApprovalEventData = { id: row.id, type: row.type, title: row.title, status: change.status, requester: { id: row.created_by, name: row.requested_by_name }, decider: event === 'approval.decided' ? decider : null };
    const payload = { type: event, timestamp: at, data: { approval } };
    const messageId = messageIdOf(`${row.tenant_id}:${row.id}:${event}:${change.version}`);
    return destinations.filter((d) => (JSON.parse(d.events) as string[]).includes(event)).map((d) => newDelivery(row.tenant_id, d.id, event, messageId, payload, at));
  });
  return queueDeliveries(trx, rows, now);
}

async function personOf(db: DB, tenantId: string, userId: string) {
  const [u] = await listActiveMemberAccounts(db, tenantId, [userId]);
  return { id: userId, name: u ? u.display_name || u.email : 'Unknown User' };
}
