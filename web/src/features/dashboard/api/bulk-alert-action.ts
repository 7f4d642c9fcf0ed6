import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkAlertBody, BulkAlertResult } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';

/** Acknowledge, resolve or assign several alerts in one request; each alert answers for itself. */
export const postBulkAlertAction = (tenantId: string, body: BulkAlertBody) => api<BulkAlertResult>(`${alertsPath(tenantId)}/bulk`, { method: 'POST', body });

export function useBulkAlertAction(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkAlertBody) => postBulkAlertAction(tenantId, body),
    // Lists, figures and any open detail: whatever changed (or was found changed) is reloaded.
    onSettled: () => void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) }),
  });
}
