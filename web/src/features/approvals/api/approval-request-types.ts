import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApprovalRequestTypes } from '../../../../../contract/approvals.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const path = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/approvalRequestTypes`;

export const fetchApprovalRequestTypes = (tenantId: string, signal?: AbortSignal) => api<ApprovalRequestTypes>(path(tenantId), { signal }).then((r) => r.items);

/**
 * Under the policies' key: saving or deleting a policy here (which invalidates that key) refreshes it too. Never
 * fresh: the request form asks again each time it opens, since another admin may have changed a policy meanwhile.
 */
export const approvalRequestTypesQuery = (tenantId: string) =>
  queryOptions({ queryKey: [...queryKeys.approvalPolicies(tenantId), 'request-types'] as const, queryFn: ({ signal }) => fetchApprovalRequestTypes(tenantId, signal), staleTime: 0 });

/** Every request type and whether an active policy routes it (any member may read it): what the request form offers. */
export const useApprovalRequestTypes = (tenantId: string) => useQuery(approvalRequestTypesQuery(tenantId));
