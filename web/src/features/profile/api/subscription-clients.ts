import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

interface ClientChoice {
  id: string;
  name: string;
}

/** The tenant's clients to subscribe to (first 100 by name); under the clients key so client changes refresh it. */
export const fetchSubscriptionClients = (tenantId: string, signal?: AbortSignal) =>
  api<{ items: ClientChoice[]; total: number }>(`/tenants/${encodeURIComponent(tenantId)}/clients?pageSize=100`, { signal });

export const subscriptionClientsQuery = (tenantId: string) =>
  queryOptions({
    queryKey: ['tenant', tenantId, 'clients', 'subscription-choices'],
    queryFn: ({ signal }) => fetchSubscriptionClients(tenantId, signal),
    retry: 1,
    staleTime: 60_000,
  });

export const useSubscriptionClients = (tenantId: string) => useQuery(subscriptionClientsQuery(tenantId));
