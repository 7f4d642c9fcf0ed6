import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTenantEvents, type StreamState } from '../../../lib/event-stream.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const ALERT_EVENTS = ['alert'] as const;

/** Reloads the tenant's alert queries whenever its live stream says an alert changed (or may have). */
export function useAlertStream(tenantId: string): StreamState {
  const qc = useQueryClient();
  return useTenantEvents(tenantId, ALERT_EVENTS, () => void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) }));
}

/** How long the dashboard waits for its live stream before loading without it (a slow proxy, a refused stream). */
const STREAM_WAIT_MS = 2_000;

/**
 * Whether the dashboard may load its list and figures: once the live stream is subscribed (its `ready` reloads what
 * is already cached, so a first visit asks once instead of twice), or after a short wait without it.
 */
export function useLoadAfterStream(stream: StreamState): boolean {
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), STREAM_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  return waited || stream !== 'connecting';
}
