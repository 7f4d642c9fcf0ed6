import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferencesBody, NotificationPreferencesResponse } from '../../../../../contract/profile.ts';
import { api } from '../../../lib/api.ts';
import { isOtherTenantsPreferences, queryKeys } from '../../../lib/query-keys.ts';

export const saveNotificationPreferences = (tenantId: string, body: NotificationPreferencesBody) =>
  api<NotificationPreferencesResponse>(`/tenants/${encodeURIComponent(tenantId)}/notification-preferences`, { method: 'PUT', body });

export function useSaveNotificationPreferences(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferencesBody) => saveNotificationPreferences(tenantId, body),
    onSuccess: (saved) => {
      qc.setQueryData(queryKeys.notificationPreferences(tenantId), saved);
      // Channel settings are the user's in every tenant: other tenants' cached copies are stale now.
      qc.invalidateQueries({ predicate: isOtherTenantsPreferences(tenantId) });
    },
  });
}
