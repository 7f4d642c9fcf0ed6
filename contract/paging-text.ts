/**
 * The paging texts, without a schema: what the dashboard's first screen needs, so its code carries no zod
 * (issue 33). The contract module beside re-exports it; server code imports from there.
 */

import type { PagedNobodyReason } from './alerts-text.ts';

const NO_POLICY = 'No escalation policy applies to this alert: nobody was paged.';

/** Texts of the escalation engine and the acknowledge page (the spec is silent on both). */
export const PAGING_MSG = {
  noPolicy: NO_POLICY,
  noTargetForPriority: (priority: string) => `The escalation policy has no time for ${priority} alerts: nobody was paged.`,
  /** Why an alert whose escalation started unrouted paged nobody: no policy, or its policy has no time for its priority. */
  unrouted: (policyId: string | null, priority: string) => (policyId === null ? NO_POLICY : PAGING_MSG.noTargetForPriority(priority)),
  /** An alert the engine could not escalate (its error, alone, each time it was tried): it stops, the others go on. */
  escalationFailed: (message: string) => `The escalation stopped on an error: ${message.slice(0, 200)}. Nobody more will be paged for this alert.`,
  emailOff: 'Email alert notifications are off in their preferences',
  pushOff: 'Push notifications are off in their preferences',
  noPushSubscription: 'No browser is subscribed to push notifications',
  smsNotConfigured: 'SMS is not configured on this server',
  smsOff: 'SMS notifications are off in their preferences',
  smsPriorityOff: (priority: string) => `SMS is off for ${priority} alerts in their preferences`,
  noPhoneNumber: 'No phone number in their preferences',
  /** A page found 'sending' after its run stopped (a crash, the database lost mid-send): it goes out once more. */
  resentAfterStop: 'Sent again: the server stopped while sending it',
  /** An SMS found 'sending' after its run stopped: not sent again (it costs money and has mostly arrived). */
  smsUncertain: 'The server stopped while sending this SMS: it may have arrived, and is not sent again',
  sendUncertain: 'The server stopped twice while sending this page: it is not sent a third time',
  /** A channel that failed twice in a row for a page: the person's next channel is paged at once. */
  fallback: (from: string) => `${from === 'sms' ? 'SMS' : from.charAt(0).toUpperCase() + from.slice(1)} kept failing: paged by this channel instead`,
  /** A storm: more pages for one person and channel within a minute than PAGE_STORM_LIMIT; the rest wait for a summary. */
  heldForSummary: (limit: number) => `More than ${limit} pages within a minute: kept for a summary page`,
  inSummary: (count: number) => `Sent in a summary page of ${count} alert${count === 1 ? '' : 's'}`,
  ackedBeforeSummary: 'The alert was no longer new when the summary page went out',
  notMemberAnyMore: 'No longer a member of this organization',
  ackLinkInvalid: 'This acknowledge link is invalid or has expired.',
  ackLinkUsed: 'This acknowledge link was already used.',
  ackNoLongerMember: 'You are no longer a member of this organization.',
  ackDone: 'Alert acknowledged. Thank you!',
  ackAlready: (status: string) => `This alert is already ${status.replace('_', ' ')}: nothing to acknowledge.`,
  ackFailed: 'Failed to acknowledge the alert. Please try again.',
  overdue: 'Overdue',
  /** The mark of an alert whose escalation paged nobody (issue 25), and why (its tooltip). */
  pagedNobody: 'Paged nobody',
  pagedNobodyReasons: {
    no_policy: NO_POLICY,
    nobody_on_level: 'Level 1 of its escalation policy names nobody who can be paged (no member, nobody on call, or no channel): nobody was paged.',
    unreachable: 'Nobody on level 1 of its escalation policy could be reached on any channel: nobody was paged.',
    failed: 'The escalation stopped on an error before anybody was paged.',
  } satisfies Record<PagedNobodyReason, string>,
} as const;
