import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientList } from '../../../contract/clients.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

/**
 * The tenant's clients by name, to choose from (binding an integration, subscribing to alerts). Plans allow at most 50
 * clients: one page of 100 holds them all. Under the clients key, so any client change refreshes it.
 */
export const fetchClientChoices = (tenantId: string, signal?: AbortSignal) =>
  api<ClientList>(`/tenants/${encodeURIComponent(tenantId)}/clients?pageSize=100&sort=name`, { signal }).then((r) => r.items.map((c) => ({ id: c.id, name: c.name })));

export const clientChoicesQuery = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.clientChoices(tenantId), queryFn: ({ signal }) => fetchClientChoices(tenantId, signal), staleTime: 60_000 });

export const useClientChoices = (tenantId: string, options: { enabled?: boolean } = {}) => useQuery({ ...clientChoicesQuery(tenantId), ...options });
