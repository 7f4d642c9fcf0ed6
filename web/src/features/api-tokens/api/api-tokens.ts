import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiToken, ApiTokenCreated, ApiTokenInput, ApiTokenList } from '../../../../../contract/api-tokens.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const apiTokensPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/apiTokens`;

/** Under the tenant's key: a tenant switch drops them. */
export const apiTokensKey = (tenantId: string) => [...queryKeys.tenant(tenantId), 'api-tokens'] as const;

export const apiTokensQueryOptions = (tenantId: string) =>
  queryOptions({ queryKey: apiTokensKey(tenantId), queryFn: ({ signal }) => api<ApiTokenList>(apiTokensPath(tenantId), { signal }).then((r): ApiToken[] => r.items) });

export const useApiTokens = (tenantId: string) => useQuery(apiTokensQueryOptions(tenantId));

export function useCreateApiToken(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiTokenInput) => api<ApiTokenCreated>(apiTokensPath(tenantId), { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiTokensKey(tenantId) }),
  });
}

export function useRevokeApiToken(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>(`${apiTokensPath(tenantId)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiTokensKey(tenantId) }),
  });
}
