import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationRulesBody, NotificationRulesResponse } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchNotificationRules = (signal?: AbortSignal) => api<NotificationRulesResponse>('/profile/notificationRules', { signal });

export const notificationRulesQuery = () => queryOptions({ queryKey: queryKeys.notificationRules, queryFn: ({ signal }) => fetchNotificationRules(signal) });

export const useNotificationRules = () => useQuery(notificationRulesQuery());

export const saveNotificationRules = (body: NotificationRulesBody) => api<NotificationRulesResponse>('/profile/notificationRules', { method: 'PUT', body });

export function useSaveNotificationRules() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveNotificationRules, onSuccess: (saved) => qc.setQueryData(queryKeys.notificationRules, saved) });
}
