import { ACTIVE_STATUSES, ASSIGNEE_ME, ASSIGNEE_NONE, type AlertPriority, type AlertSort } from '../../../../../contract/alerts-text.ts';
import type { ActiveAlertsQuery, Alert, AlertList, AlertStats, AlertStreamEvent } from '../../../../../contract/alerts.ts';

/** Means: this view cannot be worked out from the change alone; ask the server again. */
export const RELOAD = 'reload' as const;

const RANK: Record<AlertPriority, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };
// Plain code-unit comparison, as the databases order ISO times and ids (never locale-aware).
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The server's order of the active list (alerts.repository.ts): priority then oldest first, or newest first. */
export function compareAlerts(sort: AlertSort) {
  return sort === 'newest'
    ? (a: Alert, b: Alert) => cmp(b.createdAt, a.createdAt) || cmp(b.id, a.id)
    : (a: Alert, b: Alert) => RANK[a.priority] - RANK[b.priority] || cmp(a.createdAt, b.createdAt) || cmp(a.id, b.id);
}

const isActive = (a: Pick<Alert, 'status'>) => (ACTIVE_STATUSES as readonly string[]).includes(a.status);

/** Whether an alert belongs in a list with this filter (the text search excepted: only the server knows it). */
export function matchesFilter(filter: ActiveAlertsQuery, a: Alert, userId: string): boolean {
  if (!isActive(a)) return false;
  if (filter.status !== 'all' && a.status !== filter.status) return false;
  if (filter.priority !== 'all' && a.priority !== filter.priority) return false;
  if (filter.clientId && a.clientId !== filter.clientId) return false;
  if (filter.hasTicket !== undefined && !!a.ticket !== filter.hasTicket) return false;
  if (filter.assignee === ASSIGNEE_ME) return a.assignedTo === userId;
  if (filter.assignee === ASSIGNEE_NONE) return a.assignedTo === null;
  if (filter.assignee) return a.assignedTo === filter.assignee;
  return true;
}

/**
 * One cached page of the active list with a change applied, exactly as the server would now answer it; RELOAD where
 * that cannot be known from here: a search, a page past the first, an alert leaving a page that had more behind it
 * (the next one moves up), or an alert of unknown past that may already have been counted beyond this page.
 */
export function patchActiveList(list: AlertList, filter: ActiveAlertsQuery, event: AlertStreamEvent & { alert: Alert }, userId: string): AlertList | typeof RELOAD {
  if (filter.q || filter.page !== 1) return RELOAD;
  const { alert } = event;
  const index = list.items.findIndex((a) => a.id === alert.id);
  const belongs = matchesFilter(filter, alert, userId);
  const more = list.total > list.items.length;
  if (index >= 0) {
    if (belongs) return { ...list, items: list.items.map((a) => (a.id === alert.id ? alert : a)).sort(compareAlerts(filter.sort)) };
    if (more) return RELOAD;
    return { ...list, items: list.items.filter((a) => a.id !== alert.id), total: list.total - 1 };
  }
  if (event.kind === 'updated' && more) return RELOAD;
  if (!belongs) return list;
  const items = [...list.items, alert].sort(compareAlerts(filter.sort)).slice(0, list.pageSize);
  return { ...list, items, total: list.total + 1 };
}

/**
 * The stat cards with a change applied, given what the alert was before (`previous`: as cached, null when it was not
 * active, undefined when unknown: then RELOAD).
 */
export function patchStats(stats: AlertStats, previous: Alert | null | undefined, event: AlertStreamEvent & { alert: Alert }): AlertStats | typeof RELOAD {
  const before = event.kind === 'created' ? null : previous;
  if (before === undefined) return RELOAD;
  // An alert marked as having paged nobody (issue 25) joins the count; one not active before, and not new, may have been
  // marked and counted already.
  const marked = event.alert.pagedNobody !== null;
  if (marked && before === null && event.kind !== 'created') return RELOAD;
  const next = { ...stats, hasAlerts: true };
  if (marked && !before?.pagedNobody) next.pagedNobody += 1;
  if (before && isActive(before)) next[before.priority] -= 1;
  if (isActive(event.alert)) next[event.alert.priority] += 1;
  if (Object.values(next).some((v) => typeof v === 'number' && v < 0)) return RELOAD;
  next.lowInfo = next.low + next.info;
  next.total = next.critical + next.high + next.medium + next.lowInfo;
  return next;
}

/** An unfiltered first page holding every active alert: what is not in it is not active. */
export const isCompleteList = (filter: ActiveAlertsQuery, list: AlertList) =>
  filter.status === 'all' && filter.priority === 'all' && !filter.clientId && !filter.assignee && !filter.q && filter.hasTicket === undefined && filter.page === 1 && list.total <= list.items.length;
