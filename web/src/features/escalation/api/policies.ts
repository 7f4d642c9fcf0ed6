import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EscalationPolicy, EscalationPolicyInputBody, EscalationPolicyList } from '../../../../../contract/escalation.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const policiesPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/escalationPolicies`;
const policyPath = (tenantId: string, policyId: string) => `${policiesPath(tenantId)}/${encodeURIComponent(policyId)}`;

export const fetchPolicies = (tenantId: string, signal?: AbortSignal) => api<EscalationPolicyList>(policiesPath(tenantId), { signal }).then((r) => r.items);

export const policiesQuery = (tenantId: string) => queryOptions({ queryKey: queryKeys.escalationPolicies(tenantId), queryFn: ({ signal }) => fetchPolicies(tenantId, signal) });

export const usePolicies = (tenantId: string) => useQuery(policiesQuery(tenantId));

export const createPolicy = (tenantId: string, body: EscalationPolicyInputBody) => api<EscalationPolicy>(policiesPath(tenantId), { method: 'POST', body });
export const updatePolicy = (tenantId: string, policyId: string, body: EscalationPolicyInputBody) => api<EscalationPolicy>(policyPath(tenantId, policyId), { method: 'PUT', body });
export const deletePolicy = (tenantId: string, policyId: string) => api<{ ok: true }>(policyPath(tenantId, policyId), { method: 'DELETE' });

export function useSavePolicy(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ policyId, body }: { policyId: string | null; body: EscalationPolicyInputBody }) => (policyId ? updatePolicy(tenantId, policyId, body) : createPolicy(tenantId, body)),
    // Saving a default clears another policy's flag: reload the whole list, and the choices of other forms.
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.escalationPolicies(tenantId) }),
  });
}

export function useDeletePolicy(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (policyId: string) => deletePolicy(tenantId, policyId),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.escalationPolicies(tenantId) }),
        // Integrations and clients that named it no longer do.
        qc.invalidateQueries({ queryKey: queryKeys.integrations(tenantId) }),
        qc.invalidateQueries({ queryKey: queryKeys.clients(tenantId) }),
      ]),
  });
}
