import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Assignee } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const assigneesQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: queryKeys.assignees(tenantId),
    queryFn: ({ signal }) => api<{ items: Assignee[] }>(`/tenants/${encodeURIComponent(tenantId)}/assignees`, { signal }).then((r) => r.items),
    staleTime: 60_000,
  });

export const useAssignees = (tenantId: string, enabled = true) => useQuery({ ...assigneesQueryOptions(tenantId), enabled });
