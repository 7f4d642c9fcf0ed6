import { ALERT_MSG } from '../../../../../contract/alerts-text.ts';

/**
 * Why a key's action (a, r) does nothing on an alert in this status: the status the list shows, or the one a refusal
 * (409) reported when the alert changed meanwhile.
 */
export function keyRefusal(action: 'acknowledge' | 'resolve', status: string | undefined): string {
  if (action === 'acknowledge') {
    if (status === 'acknowledged' || status === 'in_progress') return ALERT_MSG.alreadyAcknowledged;
    if (status === 'resolved') return ALERT_MSG.resolvedCannotAcknowledge;
    if (status === 'closed') return ALERT_MSG.closedCannotAcknowledge;
    return 'This alert cannot be acknowledged now.';
  }
  if (status === 'resolved') return ALERT_MSG.alreadyResolved;
  if (status === 'closed') return ALERT_MSG.closedCannotResolve;
  return 'This alert cannot be resolved now.';
}
