/**
 * The alerts contract's lists, labels and texts, without a schema: what the dashboard's first screen needs, so its code
 * carries no zod (issue 33). alerts.ts re-exports all of it beside the schemas; server code imports from there.
 */

/** Alert priorities of spec section 9, most urgent first. */
export const ALERT_PRIORITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type AlertPriority = (typeof ALERT_PRIORITIES)[number];

/** Alert statuses of spec section 4. */
export const ALERT_STATUSES = ['new', 'acknowledged', 'in_progress', 'resolved', 'closed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** The statuses the active list loads (spec section 4); the others are history. */
export const ACTIVE_STATUSES = ['new', 'acknowledged', 'in_progress'] as const satisfies readonly AlertStatus[];
export const HISTORY_STATUSES = ['resolved', 'closed'] as const satisfies readonly AlertStatus[];

/**
 * Why an alert's escalation paged nobody (issue 25): no policy applies; level 1 of its policy names nobody who can be
 * paged (no active member among its people, nobody on call on its schedules, or no channel); every page of level 1
 * was skipped (nobody had a reachable channel); or the escalation stopped on an error before paging anyone.
 */
export const PAGED_NOBODY_REASONS = ['no_policy', 'nobody_on_level', 'unreachable', 'failed'] as const;
export type PagedNobodyReason = (typeof PAGED_NOBODY_REASONS)[number];

/** The window of the dashboard's "paged nobody" count. */
export const PAGED_NOBODY_WINDOW_HOURS = 24;

export const ALERT_ACTIONS = ['acknowledge', 'startWork', 'resolve', 'close', 'assign', 'addNote'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

export const STATUS_LABELS: Record<AlertStatus, string> = {
  new: 'New',
  acknowledged: 'Acknowledged',
  in_progress: 'In progress',
  resolved: 'Resolved',
  closed: 'Closed',
};
export const PRIORITY_LABELS: Record<AlertPriority, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

/** Texts of the alert screens: the spec's, letter for letter, and ours where it is silent. */
export const ALERT_MSG = {
  // spec section 2 (Dashboard)
  statCritical: 'Critical Alerts',
  statHigh: 'High Priority',
  statMedium: 'Medium Priority',
  statLowInfo: 'Low/Info',
  activeAlerts: 'Active Alerts',
  manageClients: 'Manage Clients',
  refresh: 'Refresh',
  // our own
  assigneeRequired: 'Choose a member to assign',
  assigneeNotMember: 'This person is not a member of this organization',
  noteRequired: 'Note text is required',
  alertNotFound: 'Alert not found',
  noLongerAllowed: 'This alert has changed meanwhile and no longer allows this action. Its current state is shown.',
  alertsLoadFailed: 'Failed to load alerts. Please try again.',
  alertLoadFailed: 'Failed to load this alert. Please try again.',
  actionFailed: 'The action failed. Please try again.',
  noHistory: 'No resolved or closed alerts match your search.',
  liveConnected: 'Live',
  liveReconnecting: 'Reconnecting…',
  liveOffline: 'Offline',
  alertGone: 'This alert does not exist or was deleted.',
  noAlertsOpen: 'No open alerts. All quiet.',
  // issue 32: what needed no doing (a bulk change counts it as done), and why a key's action does not apply
  alreadyAcknowledged: 'Already acknowledged',
  alreadyResolved: 'Already resolved',
  resolvedCannotAcknowledge: 'Resolved alerts cannot be acknowledged',
  closedCannotAcknowledge: 'Closed alerts cannot be acknowledged',
  closedCannotResolve: 'Closed alerts cannot be resolved',
  noAlertChosen: 'No alert chosen: press j or k to move to one',
  // issue 25: alerts that paged nobody (the mark on a card and its reasons: PAGING_MSG)
  /**
   * The dashboard banner, "3 alerts in the last 24 h paged nobody — set up an escalation policy": the count, then the
   * action (a link for owners and admins) or, for the others, whom to ask.
   */
  pagedNobodyCount: (n: number) => `${n} ${n === 1 ? 'alert' : 'alerts'} in the last ${PAGED_NOBODY_WINDOW_HOURS} h paged nobody`,
  pagedNobodyAction: 'set up an escalation policy',
  pagedNobodyAsk: 'ask an owner or admin to set up an escalation policy',
} as const;

/** Orders of the active list: most urgent first, the longest waiting first within a priority (default); or newest first. */
export const ALERT_SORTS = ['priority', 'newest'] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];
export const SORT_LABELS: Record<AlertSort, string> = { priority: 'Priority, oldest first', newest: 'Newest first' };

/** Assignee filter: `me` (the caller), `unassigned`, or a member's user id. */
export const ASSIGNEE_ME = 'me';
export const ASSIGNEE_NONE = 'unassigned';

/**
 * Snooze (issue 31): an unacknowledged alert stops paging until a time (30 minutes, 1 hour, 4 hours from now, or a
 * time chosen), then escalates again from level 1 unless someone acknowledged it meanwhile.
 */
export const SNOOZE_MINUTES = [30, 60, 240] as const;
