import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../../contract/clients.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchClient = (tenantId: string, clientId: string, signal?: AbortSignal) =>
  api<Client>(`/tenants/${encodeURIComponent(tenantId)}/clients/${encodeURIComponent(clientId)}`, { signal });

export const clientQueryOptions = (tenantId: string, clientId: string) =>
  queryOptions({
    queryKey: queryKeys.client(tenantId, clientId),
    queryFn: ({ signal }) => fetchClient(tenantId, clientId, signal),
    retry: false,
  });

export const useClient = (tenantId: string, clientId: string | null) =>
  useQuery({ ...clientQueryOptions(tenantId, clientId ?? ''), enabled: !!clientId });
