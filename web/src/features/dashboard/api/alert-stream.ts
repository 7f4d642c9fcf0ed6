import { useQueryClient } from '@tanstack/react-query';
import { useTenantEvents, type StreamState } from '../../../lib/event-stream.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const ALERT_EVENTS = ['alert'] as const;

/** Reloads the tenant's alert queries whenever its live stream says an alert changed (or may have). */
export function useAlertStream(tenantId: string): StreamState {
  const qc = useQueryClient();
  return useTenantEvents(tenantId, ALERT_EVENTS, () => void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) }));
}
