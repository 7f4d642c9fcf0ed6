import type { QueryClient, QueryFunctionContext } from '@tanstack/react-query';
import type { ReadStamp, StreamPosition } from '../../../../../contract/alerts.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { mayHaveMissed } from '../../../../../contract/read-stamp.ts';

/**
 * Issue 33: the dashboard's list and figures are asked for in parallel with its live stream's subscription, not after
 * its `ready`. What the stream said on its latest `ready`, per query client and tenant, with a count of readies: an
 * answer whose request began before the latest `ready` is checked against it (contract/read-stamp.ts) when it arrives;
 * one that arrived before is checked by the `ready` itself (`onStreamReady`). An answer asked for after a `ready` needs
 * no check: the stream was subscribed before it was read, so it sends every later change. After a reconnection, any
 * change since an answer's read (even one already applied live) asks for it again: what happened meanwhile is unknown.
 */
const readies = new WeakMap<QueryClient, Map<string, { count: number; position: StreamPosition | null }>>();

const latest = (qc: QueryClient, tenantId: string) => readies.get(qc)?.get(tenantId);

/** The kinds of alert query whose answers carry a read stamp: the active list's pages and the stat cards. */
const STAMPED = new Set(['active', 'stats']);

/**
 * The stream of `tenantId` is subscribed at `position` (null: unknown, an older server): every cached alert answer that
 * may lack a change made before that is asked for again, others are kept. Answers under way are left to their own
 * check (`checkedAgainstReady`); alert queries without a stamp (details, history, a client's panel) reload as before.
 * One that failed to load is tried again on a reconnection (the server may be back), not on the page's first
 * connection: that failure is this visit's, already retried and shown with its Retry button.
 */
export function onStreamReady(qc: QueryClient, tenantId: string, position: StreamPosition | null, reconnected = false) {
  let byTenant = readies.get(qc);
  if (!byTenant) readies.set(qc, (byTenant = new Map()));
  byTenant.set(tenantId, { count: (byTenant.get(tenantId)?.count ?? 0) + 1, position });
  void qc.invalidateQueries({
    queryKey: queryKeys.alerts(tenantId),
    predicate: (q) => {
      if (!STAMPED.has(q.queryKey[3] as string)) return true;
      if (q.state.fetchStatus === 'fetching') return false;
      if (q.state.data === undefined) return reconnected;
      return mayHaveMissed((q.state.data as { readStamp?: ReadStamp } | undefined)?.readStamp, position);
    },
  });
}

/**
 * A stamped query's function: `fetch`, asked once more when a `ready` arrived while it was under way and the answer may
 * have missed a change made before the stream subscribed (the second request starts after the subscription). A request
 * the app started early for it (`early`, early-answers.ts) is its first try; it began before any `ready` might have, so
 * every `ready` heard by its answer's arrival counts.
 */
export function checkedAgainstReady<T extends { readStamp?: ReadStamp }>(tenantId: string, fetch: (signal: AbortSignal) => Promise<T>, early?: () => Promise<T> | undefined) {
  return async ({ client, signal }: QueryFunctionContext): Promise<T> => {
    const taken = early?.();
    const before = taken ? 0 : (latest(client, tenantId)?.count ?? 0);
    const answer = await (taken ?? fetch(signal));
    const now = latest(client, tenantId);
    if (now && now.count !== before && mayHaveMissed(answer.readStamp, now.position)) return fetch(signal);
    return answer;
  };
}
