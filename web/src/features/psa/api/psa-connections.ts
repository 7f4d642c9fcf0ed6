import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PsaCompany, PsaCompanyMap, PsaCompanyMapInput, PsaConnection, PsaConnectionInput, PsaTestResult } from '../../../../../contract/psa.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const connectionsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/psaConnections`;
const onePath = (tenantId: string, id: string) => `${connectionsPath(tenantId)}/${encodeURIComponent(id)}`;

/** Under the tenant's key: a tenant switch drops them. */
export const psaKey = (tenantId: string) => [...queryKeys.tenant(tenantId), 'psa'] as const;
const companyMapKey = (tenantId: string, id: string) => [...psaKey(tenantId), 'companyMap', id] as const;
const companiesKey = (tenantId: string, id: string, search: string) => [...psaKey(tenantId), 'companies', id, search] as const;

/** The connections with their status: queued calls drain in the background, so the list is read again every 15 s. */
export const usePsaConnections = (tenantId: string) =>
  useQuery({
    queryKey: [...psaKey(tenantId), 'list'],
    queryFn: ({ signal }) => api<{ items: PsaConnection[] }>(connectionsPath(tenantId), { signal }).then((r) => r.items),
    refetchInterval: 15_000,
  });

/** Every write refreshes the list, its status and the maps. */
function usePsaMutation<A, R>(tenantId: string, fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: psaKey(tenantId) }) });
}

export const useCreatePsaConnection = (tenantId: string) => usePsaMutation(tenantId, (body: PsaConnectionInput) => api<PsaConnection>(connectionsPath(tenantId), { method: 'POST', body }));

export const useUpdatePsaConnection = (tenantId: string) =>
  usePsaMutation(tenantId, ({ id, body }: { id: string; body: PsaConnectionInput }) => api<PsaConnection>(onePath(tenantId, id), { method: 'PUT', body }));

export const useDeletePsaConnection = (tenantId: string) => usePsaMutation(tenantId, (id: string) => api<{ ok: true }>(onePath(tenantId, id), { method: 'DELETE' }));

export const useTestPsaConnection = (tenantId: string) => usePsaMutation(tenantId, (id: string) => api<PsaTestResult>(`${onePath(tenantId, id)}/test`, { method: 'POST' }));

/** Each client with its company or the suggestion (the server reads the PSA's companies for that: no retry storm). */
export const usePsaCompanyMap = (tenantId: string, id: string) =>
  useQuery({ queryKey: companyMapKey(tenantId, id), queryFn: ({ signal }) => api<PsaCompanyMap>(`${onePath(tenantId, id)}/companyMap`, { signal }), retry: false, staleTime: 30_000 });

export const useSavePsaCompanyMap = (tenantId: string, id: string) =>
  usePsaMutation(tenantId, (body: PsaCompanyMapInput) => api<PsaCompanyMap>(`${onePath(tenantId, id)}/companyMap`, { method: 'PUT', body }));

/** The PSA's companies whose name holds `search` (the server asks the PSA). */
export const usePsaCompanies = (tenantId: string, id: string, search: string, enabled = true) =>
  useQuery({
    queryKey: companiesKey(tenantId, id, search),
    queryFn: ({ signal }): Promise<PsaCompany[]> => api<{ items: PsaCompany[] }>(`${onePath(tenantId, id)}/companies${qs({ search: search || undefined })}`, { signal }).then((r) => r.items),
    enabled,
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
