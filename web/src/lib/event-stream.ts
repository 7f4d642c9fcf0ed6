import { useEffect, useRef, useState } from 'react';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

// Under a storm of events the page reloads at most this often; a lone event reloads at once.
const MIN_RELOAD_GAP_MS = 300;
// When the server refused the stream (session ended, membership removed), try again this much later.
const RETRY_CLOSED_MS = 5_000;

const parse = (e: Event): unknown => {
  try {
    return JSON.parse((e as MessageEvent<string>).data);
  } catch {
    return null;
  }
};

/**
 * Listens to the tenant's live stream (server-sent events, `GET /api/tenants/:id/events`) and, when one of `events`
 * arrives, lets `apply` use its data (returning true when that was enough) or else calls `reload`. It reloads on every
 * (re)connection (`ready`) and on `resync` too, so nothing missed while disconnected stays missing; `onReady` may take
 * the `ready` instead (its data says what the server had heard when it subscribed: issue 33; whether this page's
 * stream had been connected before), returning true when it did. `events` should be a constant: a new list reconnects.
 */
export function useTenantEvents(
  tenantId: string,
  events: readonly string[],
  reload: () => void,
  apply?: (name: string, data: unknown) => boolean,
  onReady?: (data: unknown, reconnected: boolean) => boolean,
): StreamState {
  const [state, setState] = useState<StreamState>('connecting');
  // The latest callbacks, without reconnecting when the caller passes new functions each render.
  const reloadRef = useRef(reload);
  const applyRef = useRef(apply);
  const readyRef = useRef(onReady);
  useEffect(() => {
    reloadRef.current = reload;
    applyRef.current = apply;
    readyRef.current = onReady;
  });
  const eventKey = events.join(',');

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let pending: ReturnType<typeof setTimeout> | null = null;
    let lastReload = 0;
    let stopped = false;
    let readies = 0;

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
      source.addEventListener('ready', (e) => {
        setState('live');
        if (!readyRef.current?.(parse(e), readies++ > 0)) throttled();
      });
      for (const name of eventKey.split(','))
        if (name)
          source.addEventListener(name, (e) => {
            // What the page can apply from the event itself shows at once; anything else reloads (throttled).
            if (!applyRef.current?.(name, parse(e))) throttled();
          });
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
