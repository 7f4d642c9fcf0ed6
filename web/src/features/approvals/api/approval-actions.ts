import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalRequest } from '../../../../../contract/approvals.ts';
import { api, ApiError } from '../../../lib/api.ts';
import { isApprovalListQuery, queryKeys } from '../../../lib/query-keys.ts';
import { requestPath } from './approvals-path.ts';

/** What may be done to a pending request, and the body each takes. */
export type ApprovalAction = { action: 'approve'; comment: string } | { action: 'reject'; reason: string } | { action: 'cancel' } | { action: 'delegate'; userId: string };

export function postApprovalAction(tenantId: string, requestId: string, a: ApprovalAction) {
  const path = `${requestPath(tenantId, requestId)}/${a.action}`;
  switch (a.action) {
    case 'approve':
      return api<ApprovalRequest>(path, { method: 'POST', body: { comment: a.comment.trim() || null } });
    case 'reject':
      return api<ApprovalRequest>(path, { method: 'POST', body: { reason: a.reason } });
    case 'cancel':
      return api<ApprovalRequest>(path, { method: 'POST', body: {} });
    case 'delegate':
      return api<ApprovalRequest>(path, { method: 'POST', body: { userId: a.userId } });
  }
}

/**
 * Approve, reject, cancel or delegate one request. The answer is the request's new state, shown at once; the lists
 * reload. A 409 (it is no longer pending) or 404 reloads the request too, so the screen shows where it stands now.
 */
export function useApprovalAction(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, ...a }: ApprovalAction & { requestId: string }) => postApprovalAction(tenantId, requestId, a as ApprovalAction),
    onSuccess: (request) => {
      qc.setQueryData(queryKeys.approvalRequest(tenantId, request.id), request);
      void qc.invalidateQueries({ queryKey: queryKeys.approvalRequests(tenantId), predicate: isApprovalListQuery });
    },
    onError: (err) => {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) void qc.invalidateQueries({ queryKey: queryKeys.approvalRequests(tenantId) });
    },
  });
}
