import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApprovalRequest } from '../../../../../contract/approvals.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { requestPath } from './approvals-path.ts';

export const fetchApprovalRequest = (tenantId: string, requestId: string, signal?: AbortSignal) => api<ApprovalRequest>(requestPath(tenantId, requestId), { signal });

export const approvalRequestQuery = (tenantId: string, requestId: string) =>
  queryOptions({
    queryKey: queryKeys.approvalRequest(tenantId, requestId),
    queryFn: ({ signal }) => fetchApprovalRequest(tenantId, requestId, signal),
  });

/** One request with its metadata, history and the people it names (none while `requestId` is null). */
export const useApprovalRequest = (tenantId: string, requestId: string | null) => useQuery({ ...approvalRequestQuery(tenantId, requestId ?? ''), enabled: !!requestId });
