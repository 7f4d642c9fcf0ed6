import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientList, ClientListParams } from '../../../../../contract/clients.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchClients = (tenantId: string, params: ClientListParams, signal?: AbortSignal) =>
  api<ClientList>(`/tenants/${encodeURIComponent(tenantId)}/clients${qs({ ...params })}`, { signal });

export const clientsQueryOptions = (tenantId: string, params: ClientListParams) =>
  queryOptions({
    queryKey: queryKeys.clientList(tenantId, params),
    queryFn: ({ signal }) => fetchClients(tenantId, params, signal),
    // The previous page stays on screen while the next one loads, instead of flashing the loading state.
    placeholderData: keepPreviousData,
  });

export const useClients = (tenantId: string, params: ClientListParams) => useQuery(clientsQueryOptions(tenantId, params));
