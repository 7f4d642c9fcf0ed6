import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserList } from '../../../../../contract/system.ts';
import { api, qs } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { ListParams } from './list-tenants.ts';

export const fetchUsers = (p: ListParams) => api<AdminUserList>(`/users${qs({ page: p.page, pageSize: p.pageSize, search: p.search })}`);

export const usersQuery = (p: ListParams) => queryOptions({ queryKey: queryKeys.systemUserList(p), queryFn: () => fetchUsers(p), placeholderData: keepPreviousData });

export const useUsers = (p: ListParams) => useQuery(usersQuery(p));
