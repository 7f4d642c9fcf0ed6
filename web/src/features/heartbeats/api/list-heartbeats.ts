import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Heartbeat, HeartbeatList } from '../../../../../contract/heartbeats.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const heartbeatsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/heartbeats`;

/** Under the tenant's key (a tenant switch drops them); the clients feature reads a client's under the same prefix. */
export const heartbeatsKey = (tenantId: string) => [...queryKeys.tenant(tenantId), 'heartbeats'] as const;

export const fetchHeartbeats = (tenantId: string, signal?: AbortSignal) => api<HeartbeatList>(heartbeatsPath(tenantId), { signal }).then((r): Heartbeat[] => r.items);

/** States change with time and pings, not with anything done here: the list is read again every 10 s. */
export const heartbeatsQueryOptions = (tenantId: string) =>
  queryOptions({ queryKey: [...heartbeatsKey(tenantId), 'list'], queryFn: ({ signal }) => fetchHeartbeats(tenantId, signal), refetchInterval: 10_000 });

export const useHeartbeats = (tenantId: string) => useQuery(heartbeatsQueryOptions(tenantId));
