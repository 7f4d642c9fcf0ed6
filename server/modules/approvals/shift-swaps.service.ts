import { randomUUID } from 'node:crypto';
import { SHIFT_SWAP_TYPE, type ApprovalLevel, type ApprovalStatus } from '../../../contract/approvals.ts';
import { SHIFT_SWAP_LIMITS, SHIFT_SWAP_MSG, type ShiftSwap, type ShiftSwapInput, type ShiftSwapList } from '../../../contract/shift-swaps.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { lockTenant } from '../tenants/tenants.service.ts';
import { onCallSomewhere, roleThroughout, scheduleStretches } from '../schedules/shift-cover.service.ts';
import { abilitiesOf } from './approvals.policy.ts';
import * as repo from './approvals.repository.ts';
import { createRequest, type ApprovalDeps } from './approvals.service.ts';
import * as swaps from './shift-swaps.repository.ts';

/**
 * Shift swaps (issue 27): a person asks someone to take (part of) their shift. The ask is an approval request of type
 * shift_swap under the tenant's policy for that type, its first level decided by the person asked; the rest (the
 * override on final approval, nothing on rejection or expiry, the requester told) follows from the approval engine.
 */

const nameOf = (u: { display_name: string; email: string }) => u.display_name || u.email;
const utc = (isoTime: string) => `${isoTime.replace('T', ' ').slice(0, 16)} UTC`;

/**
 * The tenant's active shift swap policy. A tenant that never had one gets the default: one level, decided by the
 * person asked (the owner stands in as the policy's approver, never asked). One whose policies are all inactive has
 * turned swaps off.
 */
async function swapPolicy(deps: ApprovalDeps, ctx: TenantContext): Promise<repo.PolicyRow> {
  const { db } = deps;
  const active = await repo.findActivePolicy(db, ctx.tenant.id, SHIFT_SWAP_TYPE);
  if (active) return active;
  if (await swaps.hasAnyPolicyOfType(db, ctx.tenant.id, SHIFT_SWAP_TYPE)) throw badRequest(SHIFT_SWAP_MSG.noActivePolicy, { type: SHIFT_SWAP_MSG.noActivePolicy });
  const at = deps.clock().toISOString();
  await repo.insertPolicy(db, {
    id: randomUUID(),
    tenant_id: ctx.tenant.id,
    ...repo.policyColumns({
      name: SHIFT_SWAP_MSG.defaultPolicyName,
      description: SHIFT_SWAP_MSG.defaultPolicyDescription,
      type: SHIFT_SWAP_TYPE,
      levels: [{ level: 'manager', approvers: [ctx.tenant.owner_id], timeToExpire: 48 }],
      autoRejectOnExpire: true,
      notifyOnCreate: true,
      notifyOnUpdate: true,
      // The person asked answers for themselves: handing the question on would make someone else take the shift.
      delegationEnabled: false,
      selfApprovalAllowed: false,
    }),
    active: 1,
    created_by: null,
    created_at: at,
    updated_at: at,
  });
  return (await repo.findActivePolicy(db, ctx.tenant.id, SHIFT_SWAP_TYPE))!;
}

/**
 * Asks `takerId` to take the caller's place on a schedule for [startsAt, endsAt) (from now, when it has begun). The
 * caller must be on call there for all of it, the person asked an active member not on call there meanwhile, and no
 * pending swap of the caller may overlap it.
 */
export async function createShiftSwap(deps: ApprovalDeps, ctx: TenantContext, input: ShiftSwapInput): Promise<ShiftSwap> {
  const { db } = deps;
  const tenantId = ctx.tenant.id;
  const me = ctx.user.id;
  const now = deps.clock().getTime();
  const to = Date.parse(input.endsAt);
  const from = Math.min(Math.max(Date.parse(input.startsAt), now), to);
  // The schedule first: another tenant's (or a missing) one answers 404 before anything is said about the rest.
  const schedule = await scheduleStretches(db, tenantId, input.scheduleId, from, to);
  const fields: Record<string, string> = {};
  if (to <= now) fields.endsAt = SHIFT_SWAP_MSG.over;
  if (input.takerId === me) fields.takerId = SHIFT_SWAP_MSG.takerSelf;
  else if (!(await listActiveMemberAccounts(db, tenantId, [input.takerId])).length) fields.takerId = SHIFT_SWAP_MSG.takerNotMember;
  if (Object.keys(fields).length) throw new AppError(400, 'validation_failed', Object.values(fields)[0]!, fields);
  const role = roleThroughout(schedule.pieces, me, from, to);
  if (!role) throw badRequest(SHIFT_SWAP_MSG.notYourShift, { startsAt: SHIFT_SWAP_MSG.notYourShift });
  if (onCallSomewhere(schedule.pieces, input.takerId)) throw badRequest(SHIFT_SWAP_MSG.takerOnCall, { takerId: SHIFT_SWAP_MSG.takerOnCall });
  const startsAt = new Date(from).toISOString();
  const overlapping = () => conflict(SHIFT_SWAP_MSG.overlapping, { startsAt: SHIFT_SWAP_MSG.overlapping });
  if (await swaps.findOverlappingPending(db, tenantId, schedule.id, me, startsAt, input.endsAt)) throw overlapping();
  const policy = await swapPolicy(deps, ctx);
  const [taker] = await listActiveMemberAccounts(db, tenantId, [input.takerId]);
  const myName = nameOf(ctx.user);
  const takerName = nameOf(taker!);
  const at = deps.clock().toISOString();
  const created = await createRequest(
    deps,
    ctx,
    {
      title: `Shift swap: ${schedule.name}`.slice(0, 200),
      description: `${myName} asks ${takerName} to take their ${role} shift on ${schedule.name} from ${utc(startsAt)} to ${utc(input.endsAt)}.${input.note ? `\n\n${input.note}` : ''}`,
      type: SHIFT_SWAP_TYPE,
      metadata: { schedule: schedule.name, role, from: startsAt, until: input.endsAt, takenBy: takerName },
    },
    [],
    {
      policy,
      firstApprovers: [input.takerId],
      // A question nobody answered before the stretch ends has no point any more.
      expiresBy: input.endsAt,
      inTransaction: async (trx, row) => {
        // Two asks at once: the tenant's lock makes the second see the first, and refuse.
        await lockTenant(trx, tenantId);
        if (await swaps.findOverlappingPending(trx, tenantId, schedule.id, me, startsAt, input.endsAt)) throw overlapping();
        await swaps.insertSwap(trx, {
          request_id: row.id,
          tenant_id: tenantId,
          schedule_id: schedule.id,
          requester_id: me,
          taker_id: input.takerId,
          role,
          starts_at: startsAt,
          ends_at: input.endsAt,
          note: input.note,
          status: 'pending',
          override_id: null,
          created_at: at,
          updated_at: at,
        });
      },
    },
  );
  const [swap] = await present(db, ctx, [(await swaps.findSwap(db, tenantId, created.id))!].map((s) => ({ ...s, schedule_name: schedule.name })));
  return swap!;
}

/** The swaps the caller asked for or was asked: pending ones and those not over yet, newest first. */
export async function listShiftSwaps(deps: ApprovalDeps, ctx: TenantContext): Promise<ShiftSwapList> {
  const rows = await swaps.listSwapsOf(deps.db, ctx.tenant.id, ctx.user.id, deps.clock().toISOString(), SHIFT_SWAP_LIMITS.listed);
  return { items: await present(deps.db, ctx, rows) };
}

async function present(db: DB, ctx: TenantContext, rows: Array<swaps.SwapRow & { schedule_name: string }>): Promise<ShiftSwap[]> {
  const requests = new Map((await swaps.findRequestsWithPolicy(db, ctx.tenant.id, rows.map((r) => r.request_id))).map((r) => [r.id, r]));
  const people = new Map((await repo.findPeople(db, [...new Set(rows.flatMap((r) => [r.requester_id, r.taker_id]))])).map((u) => [u.id, { id: u.id, name: nameOf(u), email: u.email }]));
  const person = (id: string) => people.get(id) ?? { id, name: 'Unknown User', email: '' };
  return rows.flatMap((s) => {
    const r = requests.get(s.request_id);
    if (!r) return [];
    const levels = parseJson<ApprovalLevel[]>(r.levels, []);
    const request = { status: r.status, levels, currentLevel: r.current_level, createdBy: r.created_by };
    return [
      {
        requestId: s.request_id,
        scheduleId: s.schedule_id,
        scheduleName: s.schedule_name,
        role: s.role,
        requester: person(s.requester_id),
        taker: person(s.taker_id),
        startsAt: s.starts_at,
        endsAt: s.ends_at,
        note: s.note,
        status: r.status as ApprovalStatus,
        currentLevel: Math.min(r.current_level, levels.length - 1),
        levels: levels.length,
        expiresAt: r.expires_at,
        overrideId: s.override_id,
        can: abilitiesOf(ctx.user.id, request, { delegationEnabled: r.delegation_enabled === 1, selfApprovalAllowed: r.self_approval_allowed === 1 }),
        createdAt: s.created_at,
      },
    ];
  });
}
