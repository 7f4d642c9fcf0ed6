import { useQueryClient } from '@tanstack/react-query';
import { useTenantEvents, type StreamState } from '../../../lib/event-stream.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const APPROVAL_EVENTS = ['approval'] as const;

/**
 * Reloads the tenant's approval requests (lists, the pending count, an open request) whenever its live stream says a
 * request changed, e.g. approved by someone else, so it leaves the Pending tab without a reload.
 */
export function useApprovalStream(tenantId: string): StreamState {
  const qc = useQueryClient();
  return useTenantEvents(tenantId, APPROVAL_EVENTS, () => void qc.invalidateQueries({ queryKey: queryKeys.approvalRequests(tenantId) }));
}
