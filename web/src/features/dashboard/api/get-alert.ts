import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertDetail } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { alertsKey, alertsPath } from './alerts-key.ts';

export const alertDetailKey = (tenantId: string, alertId: string) => [...alertsKey(tenantId), 'detail', alertId] as const;

export const fetchAlert = (tenantId: string, alertId: string, signal?: AbortSignal) =>
  api<AlertDetail>(`${alertsPath(tenantId)}/${encodeURIComponent(alertId)}`, { signal });

export const alertQueryOptions = (tenantId: string, alertId: string) =>
  queryOptions({ queryKey: alertDetailKey(tenantId, alertId), queryFn: ({ signal }) => fetchAlert(tenantId, alertId, signal) });

export const useAlert = (tenantId: string, alertId: string | null) => useQuery({ ...alertQueryOptions(tenantId, alertId ?? ''), enabled: !!alertId });
