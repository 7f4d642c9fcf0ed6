import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVE_STATUSES, ALERT_PRIORITIES, ALERT_SORTS, type AlertSort } from '../../../../../contract/alerts-text.ts';
import type { ActiveAlertsQuery } from '../../../../../contract/alerts.ts';
import { oneOf, paramsUpdater, putParam, text } from '../../../lib/search-params.ts';

/** Query parameters of the dashboard that select the list; changing any of them goes back to page 1. */
const LIST_KEYS = ['status', 'priority', 'clientId', 'assignee', 'q', 'hasTicket', 'sort'] as const;
export type ListKey = (typeof LIST_KEYS)[number];

/** Sets one parameter, leaving out defaults (the priority sort among them) so the address stays short. */
const put = (p: URLSearchParams, key: string, value: string | null | undefined) => putParam(p, key, value, (k, v) => k === 'sort' && v === 'priority');

/**
 * The dashboard's list (filters, sort, page) and its open alert live in the address: a link, a reload or a push
 * notification opens exactly that view. Unknown values fall back to the defaults.
 */
export function useDashboardParams() {
  const [params, setParams] = useSearchParams();
  // The same values and functions for as long as the address is the same: cards that take `setAlert` as their `onOpen`
  // and the filters (both memoised) do not render again when only the list's data or figures change (a live update,
  // the figures arriving after the list on a first visit: issue 33).
  const filter = useMemo(() => dashboardFilter(params), [params]);
  const update = useMemo(() => paramsUpdater(setParams), [setParams]);
  const setAlert = useCallback(
    (id: string | null) =>
      paramsUpdater(setParams)((p) => put(p, 'alert', id), id === null),
    [setParams],
  );
  /** Sets one list parameter (back to page 1). */
  const setFilter = useCallback(
    (key: ListKey, value: string | null | undefined) =>
      update((p) => {
        put(p, key, value);
        p.delete('page');
      }, true),
    [update],
  );
  const clearFilters = useCallback(() => update((p) => LIST_KEYS.filter((k) => k !== 'sort').forEach((k) => p.delete(k)), true), [update]);
  return {
    filter,
    alertId: params.get('alert'),
    setFilter,
    setPage: (n: number) => update((p) => put(p, 'page', String(n)), false),
    /** Opens an alert (a history entry: Back closes it) or closes it. */
    setAlert,
    clearFilters,
    /** How many filters narrow the list (not the sort). */
    activeFilters: [filter.status !== 'all', filter.priority !== 'all', !!filter.clientId, !!filter.assignee, !!filter.q, filter.hasTicket !== undefined].filter(Boolean).length,
  };
}

/** The list the dashboard's address selects. */
export function dashboardFilter(params: URLSearchParams): ActiveAlertsQuery {
  const page = Number(params.get('page'));
  const hasTicket = params.get('hasTicket');
  return {
    status: oneOf(ACTIVE_STATUSES, params.get('status')) ?? 'all',
    priority: oneOf(ALERT_PRIORITIES, params.get('priority')) ?? 'all',
    clientId: text(params.get('clientId'), 100),
    assignee: text(params.get('assignee'), 100),
    q: text(params.get('q'), 200),
    hasTicket: hasTicket === 'true' ? true : hasTicket === 'false' ? false : undefined,
    sort: oneOf<AlertSort>(ALERT_SORTS, params.get('sort')) ?? 'priority',
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: 100,
  };
}
