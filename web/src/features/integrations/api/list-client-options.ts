import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientList } from '../../../../../contract/clients.ts';
import { api } from '../../../lib/api.ts';

/** The tenant's clients as choices for binding an integration (plans allow at most 50 clients, one page of 100). */
export const clientOptionsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: ['tenant', tenantId, 'clients', 'options'],
    queryFn: ({ signal }) =>
      api<ClientList>(`/tenants/${encodeURIComponent(tenantId)}/clients?pageSize=100&sort=name`, { signal }).then((r) => r.items.map((c) => ({ value: c.id, label: c.name }))),
    staleTime: 60_000,
  });

export const useClientOptions = (tenantId: string, enabled: boolean) => useQuery({ ...clientOptionsQueryOptions(tenantId), enabled });
