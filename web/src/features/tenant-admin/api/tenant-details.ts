import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TenantDetails } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchTenantDetails = (tenantId: string, signal?: AbortSignal) => api<TenantDetails>(`/tenants/${encodeURIComponent(tenantId)}/details`, { signal });

export const tenantDetailsQuery = (tenantId: string) =>
  queryOptions({
    queryKey: queryKeys.tenantDetails(tenantId),
    queryFn: ({ signal }) => fetchTenantDetails(tenantId, signal),
    // A 403 or 404 will not change by asking again.
  });

export const useTenantDetails = (tenantId: string) => useQuery(tenantDetailsQuery(tenantId));
