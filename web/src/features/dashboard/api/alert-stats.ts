import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertStats } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';

export const fetchAlertStats = (tenantId: string, signal?: AbortSignal) => api<AlertStats>(`${alertsPath(tenantId)}/stats`, { signal });

export const alertStatsQueryOptions = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.alertStats(tenantId), queryFn: ({ signal }) => fetchAlertStats(tenantId, signal) });

export const useAlertStats = (tenantId: string, enabled = true) => useQuery({ ...alertStatsQueryOptions(tenantId), enabled });
