import { useQuery } from '@tanstack/react-query';
import type { Reachability } from '../../../../../contract/paging.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** By which channels each member can be paged now (the policy form warns about people nobody can reach). */
export const useReachability = (tenantId: string) =>
  useQuery({
    queryKey: queryKeys.reachability(tenantId),
    queryFn: ({ signal }) => api<Reachability>(`/tenants/${encodeURIComponent(tenantId)}/reachability`, { signal }),
    staleTime: 30_000,
  });
