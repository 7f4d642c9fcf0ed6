import { SHIFT_SWAP_MSG, type PagerOptions, type TakePagerResult } from '../../../contract/shift-swaps.ts';
import type { DB } from '../../db/database.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { enqueueJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { onCallAt } from './oncall.ts';
import * as repo from './schedules.repository.ts';
import { coverPlan, insertCover, scheduleParticipants, scheduleStretches } from './shift-cover.service.ts';
import * as settings from './take-pager.repository.ts';
import { scheduleNotFound } from './schedules.service.ts';

/**
 * "Take the pager now" (issue 27): a member not on call puts themselves in the primary's place on a schedule from now
 * for a few hours, through overrides (one per primary the stretch crosses); each person replaced is told. Owners and
 * admins may keep a schedule's pager to its participants.
 */

export const PAGER_TAKEN_JOB = 'oncall.pagerTaken';
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** What a "your pager was taken" notice says. */
export interface PagerTakenPayload {
  tenantId: string;
  scheduleId: string;
  scheduleName: string;
  userId: string;
  takerName: string;
  startsAt: string;
  endsAt: string;
}

export interface TakePagerDeps {
  db: DB;
  clock: () => Date;
  /** Jobs were scheduled: let this instance's worker look now. */
  wake: () => void;
}

/** Why the caller may not take a schedule's pager now, or null. */
function refusal(o: { participantsOnly: boolean; participant: boolean; onCall: boolean; primary: string | null }): string | null {
  if (o.participantsOnly && !o.participant) return SHIFT_SWAP_MSG.participantsOnly;
  if (o.onCall) return SHIFT_SWAP_MSG.alreadyOnCall;
  if (!o.primary) return SHIFT_SWAP_MSG.nobodyOnCall;
  return null;
}

/** Every schedule of the tenant as "Take the pager now" offers it to the caller. */
export async function pagerOptions(db: DB, ctx: TenantContext, now: Date): Promise<PagerOptions> {
  const t = now.getTime();
  const [rows, only, overrides] = await Promise.all([
    repo.listSchedules(db, ctx.tenant.id),
    settings.participantsOnlySchedules(db, ctx.tenant.id),
    repo.listOverrides(db, ctx.tenant.id, null, { from: iso(t), to: iso(t + 1) }),
  ]);
  const me = ctx.user.id;
  const items = await Promise.all(
    rows.map(async (row) => {
      const on = onCallAt(repo.toScheduleSpec(row), overrides.filter((o) => o.schedule_id === row.id).map(repo.toOverrideSpec), t);
      const participantsOnly = only.has(row.id);
      const participant = participantsOnly ? (await scheduleParticipants(db, ctx.tenant.id, row.id)).has(me) : true;
      const reason = refusal({ participantsOnly, participant, onCall: on.primary === me || on.secondary === me, primary: on.primary });
      return { scheduleId: row.id, scheduleName: row.name, participantsOnly, primary: on.primary, mayTake: reason === null, reason };
    }),
  );
  return { items, canManage: ctx.abilities.manageEscalation };
}

/**
 * Puts the caller in the primary's place from now for `hours`: one override per stretch of the same primary (the
 * caller's own stretches and nobody's are left as they are), in one transaction with a notice to each person replaced.
 */
export async function takePager(deps: TakePagerDeps, ctx: TenantContext, scheduleId: string, input: { hours: number; note: string | null }): Promise<TakePagerResult> {
  const { db } = deps;
  const tenantId = ctx.tenant.id;
  const me = ctx.user.id;
  const now = deps.clock();
  const from = now.getTime();
  const schedule = await scheduleStretches(db, tenantId, scheduleId, from, from + input.hours * HOUR);
  if ((await settings.participantsOnlySchedules(db, tenantId)).has(scheduleId) && !(await scheduleParticipants(db, tenantId, scheduleId)).has(me)) {
    throw forbidden(SHIFT_SWAP_MSG.participantsOnly);
  }
  const first = schedule.pieces[0];
  if (first && (first.primary === me || first.secondary === me)) throw conflict(SHIFT_SWAP_MSG.alreadyOnCall);
  const stretches = coverPlan(schedule, 'primary', (p) => p.primary !== me);
  if (!stretches.length) throw conflict(SHIFT_SWAP_MSG.nobodyOnCall);
  const takerName = ctx.user.display_name || ctx.user.email;
  const overrides = await db.transaction().execute(async (trx) => {
    const made = [];
    const jobs: NewJob[] = [];
    for (const s of stretches) {
      const o = await insertCover(trx, { tenantId, scheduleId, replacedUserId: s.replaced, userId: me, startsAt: iso(s.start), endsAt: iso(s.end), note: input.note ?? 'Took the pager', createdBy: me });
      made.push({ ...o, replacedUserId: s.current });
      jobs.push({
        kind: PAGER_TAKEN_JOB,
        uniqueKey: `${PAGER_TAKEN_JOB}:${o.id}`,
        tenantId,
        dueAt: now,
        payload: { tenantId, scheduleId, scheduleName: schedule.name, userId: s.current, takerName, startsAt: o.startsAt, endsAt: o.endsAt } satisfies PagerTakenPayload,
      });
    }
    await enqueueJobs(trx, jobs, now);
    return made;
  });
  deps.wake();
  return { scheduleId, overrides: overrides.map((o) => ({ id: o.id, replacedUserId: o.replacedUserId, userId: o.userId, startsAt: o.startsAt, endsAt: o.endsAt })) };
}

/** Owners and admins keep a schedule's pager to its participants (or open it to every member again). */
export async function setPagerSetting(db: DB, ctx: TenantContext, scheduleId: string, participantsOnly: boolean, now: Date) {
  authorize(ctx, 'manageEscalation', SHIFT_SWAP_MSG.settingForbidden);
  if (!(await repo.findSchedule(db, ctx.tenant.id, scheduleId))) throw scheduleNotFound();
  await settings.saveSetting(db, { schedule_id: scheduleId, tenant_id: ctx.tenant.id, participants_only: participantsOnly ? 1 : 0, updated_by: ctx.user.id, updated_at: now.toISOString() });
  return { scheduleId, participantsOnly };
}

/** The text of the notice to a person whose pager was taken. */
export function pagerTakenText(p: PagerTakenPayload, url: string) {
  const range = `${p.startsAt.replace('T', ' ').slice(0, 16)} – ${p.endsAt.replace('T', ' ').slice(0, 16)} UTC`;
  const title = `${p.takerName} took your pager: ${p.scheduleName}`;
  return { title, text: `${p.takerName} took the pager of ${p.scheduleName} from you, ${range}. You are not paged on it meanwhile.\n\nYour shifts: ${url}`, summary: `${p.scheduleName}, ${range}` };
}
