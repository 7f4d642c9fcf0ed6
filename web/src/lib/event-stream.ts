import { useEffect, useRef, useState } from 'react';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

// Under a storm of events the page reloads at most this often; a lone event reloads at once.
const MIN_RELOAD_GAP_MS = 300;
// When the server refused the stream (session ended, membership removed), try again this much later.
const RETRY_CLOSED_MS = 5_000;

/**
 * Listens to the tenant's live stream (server-sent events, `GET /api/tenants/:id/events`) and calls `reload` when one
 * of `events` arrives. It reloads on every (re)connection (`ready`) and on `resync` too, so nothing missed while
 * disconnected stays missing. `events` should be a constant: a new list reconnects.
 */
export function useTenantEvents(tenantId: string, events: readonly string[], reload: () => void): StreamState {
  const [state, setState] = useState<StreamState>('connecting');
  // The latest callback, without reconnecting when the caller passes a new function each render.
  const reloadRef = useRef(reload);
  useEffect(() => {
    reloadRef.current = reload;
  });
  const eventKey = events.join(',');

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let pending: ReturnType<typeof setTimeout> | null = null;
    let lastReload = 0;
    let stopped = false;

    const run = () => {
      lastReload = Date.now();
      reloadRef.current();
    };
    const throttled = () => {
      const wait = lastReload + MIN_RELOAD_GAP_MS - Date.now();
      if (wait <= 0) run();
      else if (!pending)
        pending = setTimeout(() => {
          pending = null;
          run();
        }, wait);
    };

    const connect = () => {
      if (stopped) return;
      source = new EventSource(`/api/tenants/${encodeURIComponent(tenantId)}/events`);
      // Also on the first connection: whatever changed between loading the page and subscribing would be missed.
      source.addEventListener('ready', () => {
        setState('live');
        throttled();
      });
      for (const name of eventKey.split(',')) if (name) source.addEventListener(name, throttled);
      source.addEventListener('resync', throttled);
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
      if (pending) clearTimeout(pending);
    };
  }, [tenantId, eventKey]);

  return state;
}
