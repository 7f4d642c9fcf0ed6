import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Integration } from '../../../../../contract/integrations.ts';
import type { MaintenanceWindow, MaintenanceWindowInput, MaintenanceWindowList } from '../../../../../contract/maintenance.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const maintenancePath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/maintenanceWindows`;

/** Under the tenant's key (a tenant switch drops them); every list of windows (tab, banner, client) under one prefix. */
export const maintenanceKey = (tenantId: string) => [...queryKeys.tenant(tenantId), 'maintenance'] as const;

/**
 * Windows begin and end with time, not with anything done here: the lists are read again every 30 s. `clientId`:
 * those covering one client; `current`: leave out the ended ones.
 */
export const maintenanceQueryOptions = (tenantId: string, filter: { clientId?: string; current?: boolean } = {}) => {
  const qs = new URLSearchParams();
  if (filter.clientId) qs.set('clientId', filter.clientId);
  if (filter.current) qs.set('current', 'true');
  const query = qs.toString();
  return queryOptions({
    queryKey: [...maintenanceKey(tenantId), 'list', query],
    queryFn: ({ signal }) => api<MaintenanceWindowList>(`${maintenancePath(tenantId)}${query ? `?${query}` : ''}`, { signal }).then((r): MaintenanceWindow[] => r.items),
    refetchInterval: 30_000,
  });
};

export const useMaintenanceWindows = (tenantId: string, filter: { clientId?: string; current?: boolean } = {}, options: { enabled?: boolean } = {}) =>
  useQuery({ ...maintenanceQueryOptions(tenantId, filter), ...options });

const one = (tenantId: string, id: string) => `${maintenancePath(tenantId)}/${encodeURIComponent(id)}`;

/** Every write refreshes the windows, and the alert lists (released alerts change nothing shown, but held ones may). */
function useMaintenanceMutation<V, R>(tenantId: string, run: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => qc.invalidateQueries({ queryKey: maintenanceKey(tenantId) }) });
}

export const useSaveMaintenanceWindow = (tenantId: string) =>
  useMaintenanceMutation(tenantId, ({ id, body }: { id: string | null; body: MaintenanceWindowInput }) =>
    api<MaintenanceWindow>(id ? one(tenantId, id) : maintenancePath(tenantId), { method: id ? 'PUT' : 'POST', body }),
  );

export const useEndMaintenanceWindow = (tenantId: string) => useMaintenanceMutation(tenantId, (id: string) => api<MaintenanceWindow>(`${one(tenantId, id)}/end`, { method: 'POST' }));

export const useDeleteMaintenanceWindow = (tenantId: string) => useMaintenanceMutation(tenantId, (id: string) => api<{ ok: true }>(one(tenantId, id), { method: 'DELETE' }));

/**
 * The tenant's integrations, to scope a window by: under the integrations feature's key and in its shape (the list of
 * items), so either reading fills the other (features do not import each other).
 */
export const useIntegrationChoices = (tenantId: string) =>
  useQuery({
    queryKey: queryKeys.integrations(tenantId),
    queryFn: ({ signal }) => api<{ items: Integration[] }>(`/tenants/${encodeURIComponent(tenantId)}/integrations`, { signal }).then((r) => r.items),
  });
