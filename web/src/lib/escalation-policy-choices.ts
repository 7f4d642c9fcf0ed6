import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EscalationPolicyList } from '../../../contract/escalation.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

export interface EscalationPolicyChoice {
  id: string;
  name: string;
  isDefault: boolean;
}

/**
 * The tenant's escalation policies to choose from (the integration and client forms). Every member may read them.
 * Under the policies key, so any policy change refreshes it.
 */
export const fetchEscalationPolicyChoices = (tenantId: string, signal?: AbortSignal) =>
  api<EscalationPolicyList>(`/tenants/${encodeURIComponent(tenantId)}/escalationPolicies`, { signal }).then((r) =>
    r.items.map((p): EscalationPolicyChoice => ({ id: p.id, name: p.name, isDefault: p.isDefault })),
  );

export const escalationPolicyChoicesQuery = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.escalationPolicyChoices(tenantId), queryFn: ({ signal }) => fetchEscalationPolicyChoices(tenantId, signal), staleTime: 60_000 });

export const useEscalationPolicyChoices = (tenantId: string, options: { enabled?: boolean } = {}) => useQuery({ ...escalationPolicyChoicesQuery(tenantId), ...options });

/** The select's options: each policy by name, the default one marked. */
export const policySelectData = (choices: EscalationPolicyChoice[] | undefined) =>
  (choices ?? []).map((p) => ({ value: p.id, label: p.isDefault ? `${p.name} (default)` : p.name }));
