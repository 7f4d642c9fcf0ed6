import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { ShiftSwapsTable } from '../../db/schema.ts';

/** Shift swaps beside their approval requests (issue 27); every query held to one tenant. */

export type SwapRow = ShiftSwapsTable;

export async function insertSwap(db: DB, row: Insertable<ShiftSwapsTable>) {
  await db.insertInto('shift_swaps').values(row).execute();
}

export async function findSwap(db: DB, tenantId: string, requestId: string): Promise<SwapRow | undefined> {
  return db.selectFrom('shift_swaps').selectAll().where('tenant_id', '=', tenantId).where('request_id', '=', requestId).executeTakeFirst();
}

export async function updateSwap(db: DB, tenantId: string, requestId: string, set: Pick<Updateable<ShiftSwapsTable>, 'status' | 'override_id' | 'taker_id' | 'updated_at'>) {
  await db.updateTable('shift_swaps').set(set).where('tenant_id', '=', tenantId).where('request_id', '=', requestId).execute();
}

/** The requester's pending swaps of a schedule that overlap [from, to). */
export async function findOverlappingPending(db: DB, tenantId: string, scheduleId: string, requesterId: string, from: string, to: string) {
  return db
    .selectFrom('shift_swaps')
    .select('request_id')
    .where('tenant_id', '=', tenantId)
    .where('schedule_id', '=', scheduleId)
    .where('requester_id', '=', requesterId)
    .where('status', '=', 'pending')
    .where('starts_at', '<', to)
    .where('ends_at', '>', from)
    .limit(1)
    .executeTakeFirst();
}

/**
 * The swaps a person asked for or was asked, pending or not over by `now`, newest first; with the schedule's name.
 */
export async function listSwapsOf(db: DB, tenantId: string, userId: string, now: string, limit: number) {
  return db
    .selectFrom('shift_swaps as s')
    .innerJoin('oncall_schedules as o', (j) => j.onRef('o.id', '=', 's.schedule_id').on('o.tenant_id', '=', tenantId))
    .selectAll('s')
    .select('o.name as schedule_name')
    .where('s.tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('s.requester_id', '=', userId), eb('s.taker_id', '=', userId)]))
    .where((eb) => eb.or([eb('s.status', '=', 'pending'), eb('s.ends_at', '>', now)]))
    .orderBy('s.created_at', 'desc')
    .orderBy('s.request_id', 'desc')
    .limit(limit)
    .execute();
}

/** Approval requests by id, with the switches of their policies that decide who may do what. */
export async function findRequestsWithPolicy(db: DB, tenantId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('approval_requests as r')
    .innerJoin('approval_policies as p', 'p.id', 'r.policy_id')
    .selectAll('r')
    .select(['p.delegation_enabled', 'p.self_approval_allowed'])
    .where('r.tenant_id', '=', tenantId)
    .where('r.id', 'in', ids)
    .execute();
}

/** Whether the tenant has any policy of the type, active or not. */
export async function hasAnyPolicyOfType(db: DB, tenantId: string, type: string): Promise<boolean> {
  return !!(await db.selectFrom('approval_policies').select('id').where('tenant_id', '=', tenantId).where('type', '=', type).limit(1).executeTakeFirst());
}
