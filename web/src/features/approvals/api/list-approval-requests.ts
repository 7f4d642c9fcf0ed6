import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { APPROVAL_LIMITS, type ApprovalRequestList, type ApprovalView } from '../../../../../contract/approvals.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { requestsPath } from './approvals-path.ts';

export interface ApprovalListParams {
  view: ApprovalView;
  page: number;
  pageSize?: number;
}

export const fetchApprovalRequests = (tenantId: string, params: ApprovalListParams, signal?: AbortSignal) =>
  api<ApprovalRequestList>(`${requestsPath(tenantId)}${qs({ view: params.view, page: params.page, pageSize: params.pageSize ?? APPROVAL_LIMITS.pageSize })}`, { signal });

export const approvalRequestsQuery = (tenantId: string, params: ApprovalListParams) =>
  queryOptions({
    // The page size is part of the key, so the tab's first page and the pending count share one request.
    queryKey: queryKeys.approvalRequestList(tenantId, { view: params.view, page: params.page, pageSize: params.pageSize ?? APPROVAL_LIMITS.pageSize }),
    queryFn: ({ signal }) => fetchApprovalRequests(tenantId, params, signal),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
    // A refusal (403 for the all view, 404 for a tenant one no longer belongs to) will not change by asking again.
  });

/** One page of the pending, own or all requests (`view`). */
export const useApprovalRequests = (tenantId: string, params: ApprovalListParams) => useQuery(approvalRequestsQuery(tenantId, params));
