import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalRequest, ApprovalRequestInputBody } from '../../../../../contract/approvals.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { requestsPath } from './approvals-path.ts';

/**
 * Creates a request: plain JSON without files; with files, multipart/form-data whose first field `request` holds the
 * same JSON, followed by one `attachments` part per file.
 */
export function createApprovalRequest(tenantId: string, body: ApprovalRequestInputBody, files: File[]) {
  if (!files.length) return api<ApprovalRequest>(requestsPath(tenantId), { method: 'POST', body });
  const form = new FormData();
  form.append('request', JSON.stringify(body));
  for (const file of files) form.append('attachments', file, file.name);
  return api<ApprovalRequest>(requestsPath(tenantId), { method: 'POST', body: form });
}

export function useCreateApprovalRequest(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, files }: { body: ApprovalRequestInputBody; files: File[] }) => createApprovalRequest(tenantId, body, files),
    onSuccess: (request) => {
      qc.setQueryData(queryKeys.approvalRequest(tenantId, request.id), request);
      return qc.invalidateQueries({ queryKey: queryKeys.approvalRequests(tenantId) });
    },
  });
}
