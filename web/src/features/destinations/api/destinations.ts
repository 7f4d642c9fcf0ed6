import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Delivery, DeliveryList, Destination, DestinationInput, DestinationList, DestinationWithSecret } from '../../../../../contract/destinations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const destinationsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/destinations`;
const onePath = (tenantId: string, id: string) => `${destinationsPath(tenantId)}/${encodeURIComponent(id)}`;

/** Under the tenant's key: a tenant switch drops them. */
export const destinationsKey = (tenantId: string) => [...queryKeys.tenant(tenantId), 'destinations'] as const;
const deliveriesKey = (tenantId: string, id: string) => [...destinationsKey(tenantId), 'deliveries', id] as const;

export const useDestinations = (tenantId: string) =>
  useQuery({ queryKey: [...destinationsKey(tenantId), 'list'], queryFn: ({ signal }): Promise<Destination[]> => api<DestinationList>(destinationsPath(tenantId), { signal }).then((r) => r.items) });

/** The delivery log: retries happen in the background, so it is read again every 10 s while open. */
export const useDeliveries = (tenantId: string, id: string) =>
  useQuery({ queryKey: deliveriesKey(tenantId, id), queryFn: ({ signal }) => api<DeliveryList>(`${onePath(tenantId, id)}/deliveries`, { signal }).then((r): Delivery[] => r.items), refetchInterval: 10_000 });

/** Every write refreshes the list and the logs (a test event or a 410 may change both). */
function useDestinationMutation<A, R>(tenantId: string, fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: destinationsKey(tenantId) }) });
}

export const useCreateDestination = (tenantId: string) =>
  useDestinationMutation(tenantId, (body: DestinationInput) => api<DestinationWithSecret>(destinationsPath(tenantId), { method: 'POST', body }));

export const useUpdateDestination = (tenantId: string) =>
  useDestinationMutation(tenantId, ({ id, ...body }: DestinationInput & { id: string }) => api<Destination>(onePath(tenantId, id), { method: 'PUT', body }));

export const useDeleteDestination = (tenantId: string) => useDestinationMutation(tenantId, (id: string) => api<{ ok: true }>(onePath(tenantId, id), { method: 'DELETE' }));

export const useSendTestEvent = (tenantId: string) => useDestinationMutation(tenantId, (id: string) => api<Delivery>(`${onePath(tenantId, id)}/test`, { method: 'POST' }));

export const useRetryDelivery = (tenantId: string) =>
  useDestinationMutation(tenantId, ({ id, deliveryId }: { id: string; deliveryId: string }) => api<Delivery>(`${onePath(tenantId, id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, { method: 'POST' }));

export const useRotateSecret = (tenantId: string) => useDestinationMutation(tenantId, (id: string) => api<DestinationWithSecret>(`${onePath(tenantId, id)}/rotateSecret`, { method: 'POST' }));
