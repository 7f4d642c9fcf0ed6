import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertHistoryQuery, AlertList } from '../../../../../contract/alerts.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';

export type HistoryParams = Pick<AlertHistoryQuery, 'status' | 'priority' | 'page'> & { q?: string; clientId?: string };

export const fetchAlertHistory = (tenantId: string, p: HistoryParams, signal?: AbortSignal) =>
  api<AlertList>(
    `${alertsPath(tenantId)}/history${qs({ status: p.status === 'all' ? undefined : p.status, priority: p.priority === 'all' ? undefined : p.priority, q: p.q?.trim(), clientId: p.clientId, page: p.page })}`,
    { signal },
  );

export const alertHistoryQueryOptions = (tenantId: string, p: HistoryParams) =>
  queryOptions({
    queryKey: queryKeys.alertHistory(tenantId, p),
    queryFn: ({ signal }) => fetchAlertHistory(tenantId, p, signal),
    placeholderData: keepPreviousData,
  });

export const useAlertHistory = (tenantId: string, p: HistoryParams) => useQuery(alertHistoryQueryOptions(tenantId, p));
