import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

// Under a storm of events the lists reload at most this often; a lone event reloads at once.
const MIN_RELOAD_GAP_MS = 300;
// When the server refused the stream (session ended, membership removed), try again this much later.
const RETRY_CLOSED_MS = 5_000;

/**
 * Listens to the tenant's live alert stream (server-sent events) and reloads the alert queries when something
 * changes. On every (re)connection it reloads too, so nothing missed while disconnected stays missing.
 */
export function useAlertStream(tenantId: string): StreamState {
  const qc = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  const lastReload = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;

    const reload = () => {
      const wait = lastReload.current + MIN_RELOAD_GAP_MS - Date.now();
      if (wait <= 0) {
        lastReload.current = Date.now();
        void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) });
      } else if (!pending.current) {
        pending.current = setTimeout(() => {
          pending.current = null;
          lastReload.current = Date.now();
          void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) });
        }, wait);
      }
    };

    const connect = () => {
      if (stopped) return;
      source = new EventSource(`/api/tenants/${encodeURIComponent(tenantId)}/events`);
      // Also on the first connection: whatever changed between loading the lists and subscribing would be missed.
      source.addEventListener('ready', () => {
        setState('live');
        reload();
      });
      source.addEventListener('alert', reload);
      source.addEventListener('resync', reload);
      source.onerror = () => {
        setState('reconnecting');
        // The browser retries by itself unless the server answered with an error status; then we retry later.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          retry = setTimeout(connect, RETRY_CLOSED_MS);
        }
      };
    };
    connect();
    return () => {
      stopped = true;
      source?.close();
      if (retry) clearTimeout(retry);
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
    };
  }, [qc, tenantId]);

  return state;
}
