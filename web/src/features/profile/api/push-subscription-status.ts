import { useQuery } from '@tanstack/react-query';
import type { PushSubscriptionStatus } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Whether the server holds this browser's push subscription (by its endpoint) under the signed-in user. */
export const fetchPushSubscriptionStatus = (endpoint: string, signal?: AbortSignal) =>
  api<PushSubscriptionStatus>(`/profile/pushSubscription?endpoint=${encodeURIComponent(endpoint)}`, { signal });

export const usePushSubscriptionStatus = (endpoint: string | null) =>
  useQuery({ queryKey: queryKeys.pushSubscription(endpoint ?? ''), queryFn: ({ signal }) => fetchPushSubscriptionStatus(endpoint!, signal), enabled: endpoint !== null });
