import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActiveAlertsQuery, AlertList } from '../../../../../contract/alerts.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';
import { checkedAgainstReady } from './stream-ready.ts';
import { takeEarly } from './early-answers.ts';

/** The active list's address; defaults are left out of it. */
export const activeAlertsPath = (tenantId: string, filter: ActiveAlertsQuery) =>
  `${alertsPath(tenantId)}${qs({
    status: filter.status === 'all' ? undefined : filter.status,
    priority: filter.priority === 'all' ? undefined : filter.priority,
    clientId: filter.clientId,
    assignee: filter.assignee,
    q: filter.q,
    hasTicket: filter.hasTicket === undefined ? undefined : String(filter.hasTicket),
    sort: filter.sort === 'priority' ? undefined : filter.sort,
    page: filter.page === 1 ? undefined : filter.page,
    pageSize: filter.pageSize === 100 ? undefined : filter.pageSize,
  })}`;

/** The active list as the server pages it. */
export const fetchActiveAlerts = (tenantId: string, filter: ActiveAlertsQuery, signal?: AbortSignal) =>
  api<AlertList>(activeAlertsPath(tenantId, filter), { signal });

export function activeAlertsQueryOptions(tenantId: string, filter: ActiveAlertsQuery) {
  const queryKey = queryKeys.activeAlerts(tenantId, filter);
  return queryOptions({
    queryKey,
    // Asked in parallel with the live stream's subscription: checked against its `ready` (stream-ready.ts). A request
    // the app started early for this list (prefetch-dashboard.ts) is this query's first try.
    queryFn: checkedAgainstReady(tenantId, (signal) => fetchActiveAlerts(tenantId, filter, signal), () => takeEarly<AlertList>(queryKey)),
    placeholderData: keepPreviousData,
  });
}

export function useActiveAlerts(tenantId: string, filter: ActiveAlertsQuery, enabled = true) {
  const options = activeAlertsQueryOptions(tenantId, filter);
  return useQuery({ ...options, enabled });
}
