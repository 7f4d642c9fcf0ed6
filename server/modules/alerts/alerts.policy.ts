import type { AlertAction, AlertStatus } from '../../../contract/alerts.ts';

/**
 * The statuses each action may start from. Spec section 4: Acknowledge on new; Resolve on acknowledged or
 * in_progress; Assign on new or acknowledged; Add Note always. Ours: Start work on acknowledged, Close on resolved.
 * Every member of the tenant may act on its alerts.
 */
export const ACTION_FROM: Record<AlertAction, readonly AlertStatus[]> = {
  acknowledge: ['new'],
  startWork: ['acknowledged'],
  resolve: ['acknowledged', 'in_progress'],
  close: ['resolved'],
  assign: ['new', 'acknowledged'],
  addNote: ['new', 'acknowledged', 'in_progress', 'resolved', 'closed'],
};

const ORDER: AlertAction[] = ['acknowledge', 'startWork', 'resolve', 'close', 'assign', 'addNote'];

export function canApply(action: AlertAction, status: AlertStatus) {
  return ACTION_FROM[action].includes(status);
}

/** The actions an alert in this status offers, in the order the UI shows them. */
export function allowedActions(status: AlertStatus): AlertAction[] {
  return ORDER.filter((a) => canApply(a, status));
}
