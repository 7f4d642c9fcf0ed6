import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertDetail } from '../../../../../contract/alerts.ts';
import { api, ApiError } from '../../../lib/api.ts';
import { isAlertListQuery, queryKeys } from '../../../lib/query-keys.ts';
import { alertsPath } from './alerts-path.ts';

/** The status changes: POST /alerts/:id/{acknowledge|start|resolve|close}, no body. */
export type StatusAction = 'acknowledge' | 'start' | 'resolve' | 'close';

export const postAlertAction = (tenantId: string, alertId: string, action: StatusAction) =>
  api<AlertDetail>(`${alertsPath(tenantId)}/${encodeURIComponent(alertId)}/${action}`, { method: 'POST', body: {} });

/**
 * Shared by every alert mutation: the answer is the alert's new state, shown at once; lists refresh. A 409 (the alert
 * changed meanwhile) reloads the alert so the modal shows where it stands now.
 */
export function useAlertMutation<V>(tenantId: string, alertId: string, run: (v: V) => Promise<AlertDetail>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (detail) => {
      qc.setQueryData(queryKeys.alert(tenantId, alertId), detail);
      void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId), predicate: isAlertListQuery });
    },
    onError: (err) => {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) });
    },
  });
}

export const useAlertAction = (tenantId: string, alertId: string) =>
  useAlertMutation(tenantId, alertId, (action: StatusAction) => postAlertAction(tenantId, alertId, action));

/** A status change on any alert of a list (keyboard a / r): the alert's new state is cached, lists refresh. */
export function useListAlertAction(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, action }: { alertId: string; action: StatusAction }) => postAlertAction(tenantId, alertId, action),
    onSuccess: (detail) => qc.setQueryData(queryKeys.alert(tenantId, detail.alert.id), detail),
    onSettled: () => void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId), predicate: isAlertListQuery }),
  });
}
