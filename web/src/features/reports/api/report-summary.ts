import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportSummary } from '../../../../../contract/reports.ts';
import { api, qs, retryLoad } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface ReportParams {
  from: string;
  to: string;
  clientId?: string | null;
}

export const fetchReportSummary = (tenantId: string, p: ReportParams, signal?: AbortSignal) =>
  api<ReportSummary>(`/tenants/${encodeURIComponent(tenantId)}/reports/summary${qs({ from: p.from, to: p.to, clientId: p.clientId })}`, { signal });

/** Under the tenant's alerts key: an alert change (the live stream invalidates that key) refreshes open reports. */
export const reportSummaryQuery = (tenantId: string, p: ReportParams) =>
  queryOptions({
    queryKey: [...queryKeys.alerts(tenantId), 'report', { from: p.from, to: p.to, clientId: p.clientId ?? null }] as const,
    queryFn: ({ signal }) => fetchReportSummary(tenantId, p, signal),
    retry: retryLoad,
    staleTime: 60_000,
  });

export const useReportSummary = (tenantId: string, p: ReportParams | null) =>
  useQuery({ ...reportSummaryQuery(tenantId, p ?? { from: '', to: '' }), enabled: p !== null, placeholderData: keepPreviousData });
