import type { Level1 } from '../../../contract/escalation.ts';

// Whom a level's targets come to (issue 27, "Escalation levels that page the schedule"), without I/O: its users and,
// on each of its schedules, the person on call (and the secondary only when the level says so); each person once,
// however many targets name them.

/** Who is on call on a schedule at a moment (its primary and secondary), as `whoIsOnCall` answers. */
export interface OnCall {
  primary: string | null;
  secondary: string | null;
}

/** The targets of a level: users, schedules, and whom it pages on those schedules. */
export type LevelTargets = Pick<Level1, 'userIds' | 'scheduleIds' | 'notify'>;

/**
 * The people a level pages, each once, in order: its users, then per schedule its primary, then (with
 * `primary_and_secondary`) its secondary. A schedule nobody is on call on (or unknown: `onCall` answers null) adds
 * nobody.
 */
export function targetPeople(level: LevelTargets, onCall: (scheduleId: string) => OnCall | null | undefined): string[] {
  const ids = new Set(level.userIds);
  for (const scheduleId of level.scheduleIds) {
    const on = onCall(scheduleId);
    if (on?.primary) ids.add(on.primary);
    if (level.notify === 'primary_and_secondary' && on?.secondary) ids.add(on.secondary);
  }
  return [...ids];
}

/**
 * Whether an alert's overdue check is due by `now`, the moment a level of it fires (a step, or a start that waited
 * past the target). The level's pages then stand for the overdue re-page, which would page the level just paged, its
 * people a second time at once: the firing marks the alert overdue and clears the check.
 */
export const overdueFallsWithStep = (alert: { overdue_check_at: string | null }, now: Date) => alert.overdue_check_at !== null && Date.parse(alert.overdue_check_at) <= now.getTime();
