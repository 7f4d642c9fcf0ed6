import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertStats } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';
import { checkedAgainstReady } from './stream-ready.ts';

export const fetchAlertStats = (tenantId: string, signal?: AbortSignal) => api<AlertStats>(`${alertsPath(tenantId)}/stats`, { signal });

export const alertStatsQueryOptions = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.alertStats(tenantId), queryFn: checkedAgainstReady(tenantId, (signal) => fetchAlertStats(tenantId, signal)) });

export function useAlertStats(tenantId: string, enabled = true) {
  const options = alertStatsQueryOptions(tenantId);
  return useQuery({ ...options, enabled });
}
