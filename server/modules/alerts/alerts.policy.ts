import type { AlertAction, AlertStatus } from '../../../contract/alerts.ts';

/**
 * The statuses each action may start from. Spec section 4: Acknowledge on new; Resolve on acknowledged or
 * in_progress; Assign on new or acknowledged; Add Note always. Ours: Start work on acknowledged, Close on resolved,
 * and Resolve on new too (issue 32: a false alarm or one fixed already is closed out without acknowledging it first,
 * as PagerDuty and Opsgenie allow; it stops the escalation as acknowledging does). Every member of the tenant may act
 * on its alerts.
 */
export const ACTION_FROM: Record<AlertAction, readonly AlertStatus[]> = {
  acknowledge: ['new'],
  startWork: ['acknowledged'],
  resolve: ['new', 'acknowledged', 'in_progress'],
  close: ['resolved'],
  assign: ['new', 'acknowledged'],
  addNote: ['new', 'acknowledged', 'in_progress', 'resolved', 'closed'],
};

const ORDER: AlertAction[] = ['acknowledge', 'startWork', 'resolve', 'close', 'assign', 'addNote'];

export function canApply(action: AlertAction, status: AlertStatus) {
  return ACTION_FROM[action].includes(status);
}

/**
 * Where an action has nothing left to do: acknowledging an alert already acknowledged (or being worked on), resolving
 * one already resolved (or closed since). A bulk change reports these as done, not as refused (issue 32).
 */
export const ALREADY_DONE: Partial<Record<AlertAction, readonly AlertStatus[]>> = {
  acknowledge: ['acknowledged', 'in_progress'],
  resolve: ['resolved', 'closed'],
};

export const isAlreadyDone = (action: string, status: string) => (ALREADY_DONE[action as AlertAction] ?? []).some((s) => s === status);

/** The actions an alert in this status offers, in the order the UI shows them. */
export function allowedActions(status: AlertStatus): AlertAction[] {
  return ORDER.filter((a) => canApply(a, status));
}
