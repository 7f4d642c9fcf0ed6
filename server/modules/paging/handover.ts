import type { DB } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { enqueueJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { upcomingHandovers, whoIsOnCall } from '../schedules/schedules.service.ts';

export const HANDOVER_JOB = 'oncall.handover';
/** How far ahead handovers are scheduled; the sweep runs far more often than this, so none is missed. */
const HORIZON_MS = 2 * 3600_000;
/** How often the sweep looks (it reads every current schedule). */
const SWEEP_EVERY_MS = 60_000;

/**
 * Tells the incoming primary of a shift, by email and push (by their saved preferences), when their shift starts. A
 * sweep schedules one job per upcoming handover (unique per schedule, time and person, so every instance may sweep);
 * the job checks at that moment that the person really is on call (the rotation or an override may have changed).
 */
export function createHandoverNotifier(deps: { db: DB; notifier: Notifier; publicUrl: () => string }) {
  const { db } = deps;
  let lastSweep = Number.NEGATIVE_INFINITY;

  /** Schedules the handovers of the next two hours; at most once a minute. Returns 0 (nothing for the worker to repeat). */
  async function sweep(now: Date): Promise<number> {
    const t = now.getTime();
    if (t - lastSweep < SWEEP_EVERY_MS && t >= lastSweep) return 0;
    lastSweep = t;
    const jobs: NewJob[] = (await upcomingHandovers(db, now, HORIZON_MS)).map((h) => {
      const at = new Date(h.at).toISOString();
      return {
        kind: HANDOVER_JOB,
        uniqueKey: `handover:${h.scheduleId}:${at}:${h.primary}`,
        tenantId: h.tenantId,
        dueAt: new Date(h.at),
        payload: { tenantId: h.tenantId, scheduleId: h.scheduleId, scheduleName: h.scheduleName, userId: h.primary, at },
      };
    });
    await enqueueJobs(db, jobs, now);
    return 0;
  }

  /** A transient failure on a channel fails the job, which is tried again (the person may then hear twice on the other). */
  const handler: JobHandler = async (_job, { payload, finalAttempt }) => {
    const { tenantId, scheduleId, scheduleName, userId, at } = payload as { tenantId: string; scheduleId: string; scheduleName: string; userId: string; at: string };
    const on = await whoIsOnCall(db, tenantId, scheduleId, new Date(at));
    if (on?.primary !== userId) return;
    const [member] = await listActiveMemberAccounts(db, tenantId, [userId]);
    if (!member) return;
    const until = on.shiftEndsAt ? ` until ${on.shiftEndsAt.replace('T', ' ').slice(0, 16)} UTC` : '';
    const title = `You are on call now: ${scheduleName}`;
    const url = `${deps.publicUrl()}/app/profile`;
    const message = { purpose: 'oncall' as const, title, text: `Your on-call shift on ${scheduleName} starts now${until}.\n\nYour shifts: ${url}`, summary: `Shift on ${scheduleName}${until}`, url };
    const outcomes = await deps.notifier.notify({ userId, email: member.email }, message, ['email', 'push'], finalAttempt);
    const pending = outcomes.find((o) => o.outcome === 'pending');
    if (pending) throw pending.error;
  };

  return { sweep, handler };
}
