import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RoutingRule, RoutingRules, RulesPreview } from '../../../../../contract/ingest-formats.ts';
import { api, retryLoad } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { integrationsPath } from './list-integrations.ts';

const rulesPath = (tenantId: string, id: string) => `${integrationsPath(tenantId)}/${encodeURIComponent(id)}/rules`;
/** Under the integrations key, so a change to the integrations refreshes them too. */
const rulesKey = (tenantId: string, id: string) => [...queryKeys.integrations(tenantId), 'rules', id] as const;

/** An integration's saved routing rules (owners and admins). */
export const useRoutingRules = (tenantId: string, id: string) =>
  useQuery({ queryKey: rulesKey(tenantId, id), queryFn: ({ signal }) => api<RoutingRules>(rulesPath(tenantId, id), { signal }), retry: retryLoad, staleTime: 0 });

export function useSaveRoutingRules(tenantId: string, id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rules: RoutingRule[]) => api<RoutingRules>(rulesPath(tenantId, id), { method: 'PUT', body: { rules } }),
    onSuccess: (saved) => qc.setQueryData(rulesKey(tenantId, id), saved),
  });
}

/**
 * What `rules` (unsaved) make of the integration's last raw events. Keyed by the rules, so each change asks again
 * (the editor debounces them); the previous answer stays on screen meanwhile. A refusal (400: a rule the server
 * cannot use yet) is not retried.
 */
export const useRulesPreview = (tenantId: string, id: string, rules: RoutingRule[] | null) =>
  useQuery({
    queryKey: [...rulesKey(tenantId, id), 'preview', rules] as const,
    queryFn: ({ signal }) => api<RulesPreview>(`${rulesPath(tenantId, id)}/preview`, { method: 'POST', body: { rules: rules ?? [] }, signal }),
    enabled: rules !== null,
    placeholderData: keepPreviousData,
    retry: retryLoad,
    staleTime: 5_000,
  });
