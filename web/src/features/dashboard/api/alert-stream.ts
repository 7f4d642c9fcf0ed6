import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { HISTORY_STATUSES } from '../../../../../contract/alerts-text.ts';
import type { ActiveAlertsQuery, Alert, AlertList, AlertStats, AlertStreamEvent } from '../../../../../contract/alerts.ts';
import { useTenantEvents, type StreamState } from '../../../lib/event-stream.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useMe } from '../../../lib/session.tsx';
import { isCompleteList, patchActiveList, patchStats, RELOAD } from '../lib/live-patch.ts';
import { answerCounts, asPosition } from '../../../../../contract/read-stamp.ts';
import { onStreamReady } from './stream-ready.ts';

const ALERT_EVENTS = ['alert'] as const;

/**
 * Applies one live change to what the tenant's pages hold: every cached page of the active list and the stat cards
 * take the alert as it is now, without a request, where the change says all (live-patch.ts); the alert's own details,
 * the history (when it was resolved) and client panels are asked for again. Returns false when some list or figure
 * could not be worked out here, or was being loaded meanwhile (its answer may predate the change): then the caller
 * reloads them all, as without live patching.
 */
export function applyAlertEvent(qc: QueryClient, tenantId: string, event: AlertStreamEvent & { alert: Alert }, userId: string): boolean {
  let complete = true;
  const lists = qc.getQueriesData<AlertList>({ queryKey: [...queryKeys.alerts(tenantId), 'active'] });
  // What the alert was before, from any cached list: absent from a complete list means it was not active.
  let previous: Alert | null | undefined;
  for (const [key, list] of lists) {
    if (!list) continue;
    const found = list.items.find((a) => a.id === event.alert.id);
    if (found) previous = found;
    else if (previous === undefined && isCompleteList(key[4] as ActiveAlertsQuery, list)) previous = null;
  }
  const loading = (key: QueryKey) => qc.getQueryState(key)?.fetchStatus === 'fetching';
  for (const [key, list] of lists) {
    // A first load under way may have read the alerts before this change: it is asked for again.
    if (!list) {
      if (loading(key)) complete = false;
      continue;
    }
    const patched = patchActiveList(list, key[4] as ActiveAlertsQuery, event, userId);
    if (patched === RELOAD || loading(key)) complete = false;
    if (patched !== RELOAD && patched !== list) qc.setQueryData(key, patched);
  }
  const statsKey = queryKeys.alertStats(tenantId);
  const stats = qc.getQueryData<AlertStats>(statsKey);
  if (!stats && loading(statsKey)) complete = false;
  // The figures may have been read after this change was heard (an early answer, issue 33): counted once, not twice.
  const counted = stats ? answerCounts(stats.readStamp, event.heard) : 'no';
  if (stats && counted === 'maybe') void qc.invalidateQueries({ queryKey: statsKey, exact: true });
  if (stats && counted === 'no') {
    const patched = patchStats(stats, previous, event);
    if (patched === RELOAD || loading(statsKey)) complete = false;
    if (patched !== RELOAD) qc.setQueryData(statsKey, patched);
  }
  const resolved = (HISTORY_STATUSES as readonly string[]).includes(event.alert.status);
  void qc.invalidateQueries({
    queryKey: queryKeys.alerts(tenantId),
    predicate: (q) => {
      const part = q.queryKey[3];
      if (part === 'active' || part === 'stats') return false;
      if (part === 'detail') return q.queryKey[4] === event.alert.id;
      if (part === 'history') return resolved;
      return true;
    },
    // A request under way is left to finish (a burst would otherwise restart it forever).
  }, { cancelRefetch: false });
  return complete;
}

/**
 * Keeps the tenant's alert views current from its live stream: a change that carries its alert is applied where it is
 * shown (no request for the lists and figures); anything else (a burst, `resync`) reloads them. On (re)connection
 * (`ready`) what may have missed a change reloads, the rest is kept.
 */
export function useAlertStream(tenantId: string): StreamState {
  const qc = useQueryClient();
  const userId = useMe().data?.user.id;
  return useTenantEvents(
    tenantId,
    ALERT_EVENTS,
    () => void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) }),
    (name, data) => {
      const event = data as AlertStreamEvent | null;
      if (name !== 'alert' || !event?.alert || !userId) return false;
      return applyAlertEvent(qc, tenantId, event as AlertStreamEvent & { alert: Alert }, userId);
    },
    // Issue 33: what was read before the subscription is kept unless it may have missed a change (stream-ready.ts).
    (data, reconnected) => {
      onStreamReady(qc, tenantId, asPosition(data), reconnected);
      return true;
    },
  );
}
