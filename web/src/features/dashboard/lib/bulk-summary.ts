import type { BulkAction } from '../../../../../contract/alerts.ts';

const DONE: Record<BulkAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved', assign: 'assigned', snooze: 'snoozed', unsnooze: 'unsnoozed' };
const alerts = (n: number) => `${n} ${n === 1 ? 'alert' : 'alerts'}`;

/** The past participle of a bulk action: "acknowledged". */
export const doneWord = (action: BulkAction) => DONE[action];

/**
 * What a bulk change did, for its toast: "2 alerts acknowledged; 1 already acknowledged." Those found already done
 * (the server's `unchanged`) are done, not failures; `changed` counts the others.
 */
export function bulkSummary(action: BulkAction, changed: number, already: number): string {
  if (already === 0) return `${alerts(changed)} ${DONE[action]}.`;
  if (changed === 0) return `${alerts(already)} already ${DONE[action]}.`;
  return `${alerts(changed)} ${DONE[action]}; ${already} already ${DONE[action]}.`;
}
