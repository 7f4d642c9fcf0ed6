import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DefaultEscalationPolicy, EscalationPolicy } from '../../../../../contract/escalation.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const defaultPolicyPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/escalationPolicies/default`;

/** Under the policies' key: a policy saved or deleted on the Escalation page refreshes it too. */
export const defaultPolicyKey = (tenantId: string) => [...queryKeys.escalationPolicies(tenantId), 'default'] as const;

export const fetchDefaultPolicy = (tenantId: string, signal?: AbortSignal) => api<DefaultEscalationPolicy>(defaultPolicyPath(tenantId), { signal });

/** The tenant's default escalation policy ({ policy: null } without one): the getting-started panel's fourth step. */
export const useDefaultPolicy = (tenantId: string) => useQuery({ queryKey: defaultPolicyKey(tenantId), queryFn: ({ signal }) => fetchDefaultPolicy(tenantId, signal) });

export const createDefaultPolicy = (tenantId: string) => api<EscalationPolicy>(defaultPolicyPath(tenantId), { method: 'POST' });

/** Makes the one-click default policy (409 when there is one already: the step then reads it again and shows it done). */
export function useCreateDefaultPolicy(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => createDefaultPolicy(tenantId),
    onSuccess: (policy) => {
      qc.setQueryData<DefaultEscalationPolicy>(defaultPolicyKey(tenantId), { policy });
      // The policies' list and the policy choices of the integration and client forms.
      void qc.invalidateQueries({ queryKey: queryKeys.escalationPolicies(tenantId), predicate: (q) => q.queryKey[3] !== 'default' });
    },
  });
}
