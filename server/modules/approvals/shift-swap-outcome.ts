import { SHIFT_SWAP_TYPE } from '../../../contract/approvals.ts';
import type { DB } from '../../db/database.ts';
import { coverPlan, insertCover, scheduleStretches } from '../schedules/shift-cover.service.ts';
import type { Move } from './approval-flow.ts';
import * as swaps from './shift-swaps.repository.ts';

/**
 * What a decided shift swap does, in the transaction that decides its request: final approval puts whoever approved
 * the first level (the person asked, or the one they delegated to) in the requester's place through an override for
 * what is left of the stretch; rejection, expiry and cancellation change nothing on the schedule. The swap's row
 * follows the request's status either way.
 */
export async function settleShiftSwap(trx: DB, row: { tenant_id: string; id: string; type: string }, move: Move, at: string): Promise<void> {
  if (row.type !== SHIFT_SWAP_TYPE || move.status === 'pending') return;
  const swap = await swaps.findSwap(trx, row.tenant_id, row.id);
  if (!swap) return;
  const taker = move.levels[0]?.approvedBy ?? swap.taker_id;
  let overrideId: string | null = null;
  if (move.status === 'approved') {
    const from = Math.max(Date.parse(swap.starts_at), Date.parse(at));
    const to = Date.parse(swap.ends_at);
    // Approved only after the stretch ended: there is nothing left to cover. Where the requester is no longer on
    // call meanwhile (the schedule changed), there is nobody to replace.
    if (to > from) {
      const schedule = await scheduleStretches(trx, row.tenant_id, swap.schedule_id, from, to);
      for (const s of coverPlan(schedule, swap.role, (p) => p[swap.role] === swap.requester_id)) {
        const made = await insertCover(trx, {
          tenantId: row.tenant_id,
          scheduleId: swap.schedule_id,
          replacedUserId: s.replaced,
          userId: taker,
          startsAt: new Date(s.start).toISOString(),
          endsAt: new Date(s.end).toISOString(),
          note: swap.note ?? 'Shift swap',
          createdBy: swap.requester_id,
        });
        overrideId ??= made.id;
      }
    }
  }
  await swaps.updateSwap(trx, row.tenant_id, row.id, { status: move.status, override_id: overrideId, taker_id: move.status === 'approved' ? taker : swap.taker_id, updated_at: at });
}
