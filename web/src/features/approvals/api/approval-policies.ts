import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApprovalPolicy, ApprovalPolicyInputBody, ApprovalPolicyList } from '../../../../../contract/approvals.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { policiesPath, policyPath } from './approvals-path.ts';

export const fetchApprovalPolicies = (tenantId: string, signal?: AbortSignal) => api<ApprovalPolicyList>(policiesPath(tenantId), { signal }).then((r) => r.items);

export const approvalPoliciesQuery = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.approvalPolicies(tenantId), queryFn: ({ signal }) => fetchApprovalPolicies(tenantId, signal) });

/** The tenant's approval policies, active and inactive (owners and admins only). */
export const useApprovalPolicies = (tenantId: string) => useQuery(approvalPoliciesQuery(tenantId));

export const createApprovalPolicy = (tenantId: string, body: ApprovalPolicyInputBody) => api<ApprovalPolicy>(policiesPath(tenantId), { method: 'POST', body });
export const updateApprovalPolicy = (tenantId: string, policyId: string, body: ApprovalPolicyInputBody) =>
  api<ApprovalPolicy>(policyPath(tenantId, policyId), { method: 'PUT', body });
/** A soft delete: the policy becomes inactive. */
export const deleteApprovalPolicy = (tenantId: string, policyId: string) => api<{ ok: true }>(policyPath(tenantId, policyId), { method: 'DELETE' });

export function useSaveApprovalPolicy(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ policyId, body }: { policyId: string | null; body: ApprovalPolicyInputBody }) =>
      policyId ? updateApprovalPolicy(tenantId, policyId, body) : createApprovalPolicy(tenantId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.approvalPolicies(tenantId) }),
  });
}

export function useDeleteApprovalPolicy(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (policyId: string) => deleteApprovalPolicy(tenantId, policyId),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.approvalPolicies(tenantId) }),
  });
}
