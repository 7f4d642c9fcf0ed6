import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertList } from '../../../../../contract/alerts.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** How many of a client's resolved and closed alerts its details show, the latest first. */
export const CLIENT_HISTORY_SHOWN = 5;

/** A client's latest resolved and closed alerts; `total` counts all of them. */
export const fetchClientAlertHistory = (tenantId: string, clientId: string, signal?: AbortSignal) =>
  api<AlertList>(`/tenants/${encodeURIComponent(tenantId)}/alerts/history${qs({ clientId, pageSize: CLIENT_HISTORY_SHOWN })}`, { signal });

export const clientAlertHistoryQueryOptions = (tenantId: string, clientId: string) =>
  queryOptions({
    queryKey: queryKeys.clientAlertHistory(tenantId, clientId, { pageSize: CLIENT_HISTORY_SHOWN }),
    queryFn: ({ signal }) => fetchClientAlertHistory(tenantId, clientId, signal),
  });

export const useClientAlertHistory = (tenantId: string, clientId: string | null) =>
  useQuery({ ...clientAlertHistoryQueryOptions(tenantId, clientId ?? ''), enabled: !!clientId });
