import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationPreferencesResponse } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchNotificationPreferences = (tenantId: string, signal?: AbortSignal) =>
  api<NotificationPreferencesResponse>(`/tenants/${encodeURIComponent(tenantId)}/notification-preferences`, { signal });

export const notificationPreferencesQuery = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.notificationPreferences(tenantId), queryFn: ({ signal }) => fetchNotificationPreferences(tenantId, signal) });

export const useNotificationPreferences = (tenantId: string) => useQuery(notificationPreferencesQuery(tenantId));
