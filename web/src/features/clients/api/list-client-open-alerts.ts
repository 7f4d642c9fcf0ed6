import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertList } from '../../../../../contract/alerts.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** How many of a client's open alerts its details show, most urgent first. */
export const CLIENT_OPEN_ALERTS_SHOWN = 10;

/** A client's open alerts (new, acknowledged, in progress), most urgent and longest waiting first; `total` counts all. */
export const fetchClientOpenAlerts = (tenantId: string, clientId: string, signal?: AbortSignal) =>
  api<AlertList>(`/tenants/${encodeURIComponent(tenantId)}/alerts${qs({ clientId, pageSize: CLIENT_OPEN_ALERTS_SHOWN, sort: 'priority' })}`, { signal });

export const clientOpenAlertsQueryOptions = (tenantId: string, clientId: string) =>
  queryOptions({
    queryKey: queryKeys.clientOpenAlerts(tenantId, clientId, { pageSize: CLIENT_OPEN_ALERTS_SHOWN, sort: 'priority' }),
    queryFn: ({ signal }) => fetchClientOpenAlerts(tenantId, clientId, signal),
  });

export const useClientOpenAlerts = (tenantId: string, clientId: string | null) =>
  useQuery({ ...clientOpenAlertsQueryOptions(tenantId, clientId ?? ''), enabled: !!clientId });
