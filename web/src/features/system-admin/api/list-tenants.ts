import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminTenantList } from '../../../../../contract/system.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface ListParams {
  page: number;
  pageSize: number;
  search?: string;
}

export const fetchTenants = (p: ListParams) => api<AdminTenantList>(`/tenants${qs({ page: p.page, pageSize: p.pageSize, search: p.search })}`);

export const tenantsQuery = (p: ListParams) =>
  queryOptions({ queryKey: queryKeys.systemTenantList(p), queryFn: () => fetchTenants(p), placeholderData: keepPreviousData });

export const useTenants = (p: ListParams) => useQuery(tenantsQuery(p));
