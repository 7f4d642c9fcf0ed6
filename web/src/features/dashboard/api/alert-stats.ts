import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertStats } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';
import { checkedAgainstReady } from './stream-ready.ts';
import { takeEarly } from './early-answers.ts';

export const fetchAlertStats = (tenantId: string, signal?: AbortSignal) => api<AlertStats>(`${alertsPath(tenantId)}/stats`, { signal });

export function alertStatsQueryOptions(tenantId: string) {
  const queryKey = queryKeys.alertStats(tenantId);
  // A request the app started early for the figures (prefetch-dashboard.ts) is this query's first try.
  return queryOptions({ queryKey, queryFn: checkedAgainstReady(tenantId, (signal) => fetchAlertStats(tenantId, signal), () => takeEarly<AlertStats>(queryKey)) });
}

export function useAlertStats(tenantId: string, enabled = true) {
  const options = alertStatsQueryOptions(tenantId);
  return useQuery({ ...options, enabled });
}
