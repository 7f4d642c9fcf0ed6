import type { AlertPriority, PagedNobodyReason } from '../../../contract/alerts.ts';
import { LEVELS, noTarget, type EscalationChannel, type EscalationPolicy, type LaterLevel } from '../../../contract/escalation.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { targetPeople, type OnCall } from './page-targets.ts';

// "Policy + who is on call + now → who gets paged when": the escalation's decisions, without I/O. The engine around
// it loads, locks, writes and hands the pages to notifications.

const MINUTE = 60_000;

/** The highest level a policy has. */
export const LAST_LEVEL = LEVELS.length;

export type { OnCall } from './page-targets.ts';

/** What starting an alert's escalation comes to. */
export type StartPlan =
  /** Not new any more (acknowledged or closed before the engine saw it): no escalation. */
  | { kind: 'stopped' }
  /** Nobody is paged: no policy applies, or it has no time for the alert's priority (the timeline says which). */
  | { kind: 'unrouted'; policyId: string | null; reason: string; policyName?: string }
  /** Level 1 fires now; the overdue check falls due at the priority's target (never in the past). */
  | { kind: 'start'; policyId: string; overdueCheckAt: Date };

export function planStart(alert: { status: string; priority: string; created_at: string }, policy: EscalationPolicy | null, now: Date): StartPlan {
  if (alert.status !== 'new') return { kind: 'stopped' };
  const target = policy ? policy.escalationTimes[alert.priority as AlertPriority] : null;
  if (!policy) return { kind: 'unrouted', policyId: null, reason: PAGING_MSG.noPolicy };
  if (noTarget(target)) return { kind: 'unrouted', policyId: policy.id, reason: PAGING_MSG.noTargetForPriority(alert.priority), policyName: policy.name };
  const due = new Date(alert.created_at).getTime() + (target as number) * MINUTE;
  return { kind: 'start', policyId: policy.id, overdueCheckAt: new Date(Math.max(due, now.getTime())) };
}

/**
 * Whether starting an alert's escalation pages nobody, and why (issue 25): no policy applies, or level 1 comes to no
 * page at all (none of its people an active member, nobody on call on its schedules, or no channel). A priority its
 * policy gives no time is the policy's own choice ("alerts of that priority page nobody"), not a gap: not marked.
 */
export function pagedNobodyAtStart(plan: StartPlan, level1Pages: number): PagedNobodyReason | null {
  if (plan.kind === 'unrouted') return plan.policyId === null ? 'no_policy' : null;
  if (plan.kind === 'start') return level1Pages === 0 ? 'nobody_on_level' : null;
  return null;
}

/**
 * An alert's escalation as decided when it is inserted (issue 26), so it is written once: with no policy or no time for
 * its priority it is done (`none`; no policy also marks it as having paged nobody); otherwise it runs, level 1 due at
 * once (`nextStepAt`: the worker's step sweep fires it from that index, as every later level) and its overdue check at
 * the priority's target. The timeline shows an unrouted alert's reason from these columns.
 */
export interface InsertStart {
  state: 'running' | 'none';
  policyId: string | null;
  nextStepAt: string | null;
  overdueCheckAt: string | null;
  pagedNobody: PagedNobodyReason | null;
}

export function startAtInsert(alert: { priority: string; created_at: string }, policy: EscalationPolicy | null, heldUntil: string | null = null): InsertStart {
  const plan = planStart({ status: 'new', ...alert }, policy, new Date(alert.created_at));
  // Held (issue 31: opened inside a maintenance window): level 1 falls due when the window ends, and the overdue check
  // is set only then (`overdueAfterHold`), counting from the end of the hold.
  if (plan.kind === 'start' && heldUntil) return { state: 'running', policyId: plan.policyId, nextStepAt: heldUntil, overdueCheckAt: null, pagedNobody: null };
  if (plan.kind === 'start') return { state: 'running', policyId: plan.policyId, nextStepAt: alert.created_at, overdueCheckAt: plan.overdueCheckAt.toISOString(), pagedNobody: null };
  const policyId = plan.kind === 'unrouted' ? plan.policyId : null;
  return { state: 'none', policyId, nextStepAt: null, overdueCheckAt: null, pagedNobody: pagedNobodyAtStart(plan, 0) };
}

/**
 * A held escalation (a maintenance window, a snooze; issue 31) has no overdue check while held: level 1 firing at the
 * end of the hold sets it, the priority's target from then. Running alerts always have one until level 1 fired
 * otherwise, so a level 1 without one is the end of a hold.
 */
export const isEndOfHold = (a: { escalation_level: number; overdue_check_at: string | null }) => a.escalation_level === 0 && a.overdue_check_at === null;

export function overdueAfterHold(policy: EscalationPolicy, priority: string, now: Date): Date | null {
  const target = policy.escalationTimes[priority as AlertPriority];
  return noTarget(target) ? null : new Date(now.getTime() + (target as number) * MINUTE);
}

/** The schedules a level pages (their on-call people are read for it). */
export const levelSchedules = (policy: EscalationPolicy, level: number) => policy[LEVELS[level - 1]].scheduleIds;

/** The people a level names: its users and whoever is on call on its schedules (the secondary if it says so), each once. */
export function levelPeople(policy: EscalationPolicy, level: number, onCall: (scheduleId: string) => OnCall | null | undefined): string[] {
  return targetPeople(policy[LEVELS[level - 1]], onCall);
}

/** What firing a level (or re-paging it when overdue: `repeat`) comes to: the step's name, its channels and when the next level is due. */
export interface FirePlan {
  step: string;
  channels: EscalationChannel[];
  /** When the next level falls due; null after the last level and for a repeat. */
  nextAt: Date | null;
}

export function planFire(policy: EscalationPolicy, level: number, repeat: boolean, now: Date): FirePlan {
  const next = !repeat && level < LAST_LEVEL ? (policy[LEVELS[level]] as LaterLevel) : null;
  return {
    step: repeat ? 'overdue' : `L${level}`,
    channels: policy[LEVELS[level - 1]].notificationChannels,
    nextAt: next ? new Date(now.getTime() + next.timeAfterPrevious * MINUTE) : null,
  };
}

/** Pages of a fired level: every person on every channel of the level. */
export function pagesOf(people: string[], plan: FirePlan): Array<{ userId: string; channel: EscalationChannel }> {
  return people.flatMap((userId) => plan.channels.map((channel) => ({ userId, channel })));
}

/** The escalation state an alert must be in for a due sweep to act on it. */
export interface EscalationState {
  status: string;
  escalation_state: string;
  escalation_policy_id: string | null;
  escalation_level: number;
}

/** Still escalating: new (unacknowledged), running, under a policy. */
export const isRunning = (a: EscalationState) => a.status === 'new' && a.escalation_state === 'running' && a.escalation_policy_id !== null;

/** A next level is still to fire. */
export const hasNextLevel = (a: EscalationState) => isRunning(a) && a.escalation_level < LAST_LEVEL;

/** The level an overdue alert re-pages: the one paged last (level 1 if none was paged yet). */
export const overdueLevel = (a: EscalationState) => Math.max(1, a.escalation_level);
