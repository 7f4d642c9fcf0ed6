import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertList } from '../../../../../contract/alerts.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { historyApiQuery, rangeInOrder, type HistoryView } from '../lib/history-params.ts';
import { alertsPath } from './alerts-path.ts';

/** A page of the history; a preset range is worked out when the request goes (it ends now, at every reload). */
export const fetchAlertHistory = (tenantId: string, view: HistoryView, signal?: AbortSignal) =>
  api<AlertList>(`${alertsPath(tenantId)}/history${qs({ ...historyApiQuery(view, Date.now()), page: view.page })}`, { signal });

export const alertHistoryQueryOptions = (tenantId: string, view: HistoryView) =>
  queryOptions({
    // The view as the address has it (the preset, not its instants): the same view is the same cache entry.
    queryKey: queryKeys.alertHistory(tenantId, view),
    queryFn: ({ signal }) => fetchAlertHistory(tenantId, view, signal),
    placeholderData: keepPreviousData,
    // A custom range whose first day follows its last asks nothing: the page says why.
    enabled: rangeInOrder(view),
  });

export const useAlertHistory = (tenantId: string, view: HistoryView) => useQuery(alertHistoryQueryOptions(tenantId, view));
