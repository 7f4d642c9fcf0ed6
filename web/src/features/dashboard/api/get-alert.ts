import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertDetail } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';

export const fetchAlert = (tenantId: string, alertId: string, signal?: AbortSignal) =>
  api<AlertDetail>(`${alertsPath(tenantId)}/${encodeURIComponent(alertId)}`, { signal });

export const alertQueryOptions = (tenantId: string, alertId: string) =>
  queryOptions({ queryKey: queryKeys.alert(tenantId, alertId), queryFn: ({ signal }) => fetchAlert(tenantId, alertId, signal) });

export const useAlert = (tenantId: string, alertId: string | null) => useQuery({ ...alertQueryOptions(tenantId, alertId ?? ''), enabled: !!alertId });
