import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TenantMemberList } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// A tenant has at most a few dozen seats (members plus invitations): one page of 100 holds them all.
export const fetchMembers = (tenantId: string, signal?: AbortSignal) => api<TenantMemberList>(`/tenants/${encodeURIComponent(tenantId)}/members?pageSize=100`, { signal });

export const membersQuery = (tenantId: string) =>
  queryOptions({
    queryKey: queryKeys.members(tenantId),
    queryFn: ({ signal }) => fetchMembers(tenantId, signal),
  });

export const useMembers = (tenantId: string) => useQuery(membersQuery(tenantId));
