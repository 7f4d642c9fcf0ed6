import { describe, expect, it } from 'vitest';
import type { ActiveAlertsQuery, Alert, AlertList, AlertStats, AlertStreamEvent } from '../../../../../contract/alerts.ts';
import { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { applyAlertEvent } from '../api/alert-stream.ts';
import { compareAlerts, patchActiveList, patchStats, RELOAD } from './live-patch.ts';

const ME = 'user-me';
let n = 0;
function alert(over: Partial<Alert> = {}): Alert {
  n++;
  return {
    id: `a${String(n).padStart(3, '0')}`,
    tenantId: 't',
    clientId: null,
    clientName: null,
    integrationId: null,
    integrationName: null,
    dedupKey: null,
    title: `Alert ${n}`,
    description: '',
    priority: 'medium',
    status: 'new',
    source: 's',
    createdAt: `2026-11-24T10:${String(n).padStart(2, '0')}:00.000Z`,
    updatedAt: '2026-11-24T10:00:00.000Z',
    acknowledgedBy: null,
    acknowledgedAt: null,
    resolvedBy: null,
    resolvedAt: null,
    closedBy: null,
    closedAt: null,
    assignedTo: null,
    assigneeName: null,
    tags: [],
    metadata: {},
    occurrences: 1,
    lastSeenAt: '2026-11-24T10:00:00.000Z',
    overdueAt: null,
    pagedNobody: null,
    actions: [],
    ...over,
  };
}
const filter = (over: Partial<ActiveAlertsQuery> = {}): ActiveAlertsQuery => ({ status: 'all', priority: 'all', sort: 'priority', page: 1, pageSize: 100, ...over });
const list = (items: Alert[], total = items.length, pageSize = 100): AlertList => ({ items, total, page: 1, pageSize });
const ev = (a: Alert, kind: 'created' | 'updated' = 'created'): AlertStreamEvent & { alert: Alert } => ({
  kind,
  id: a.id,
  status: a.status,
  priority: a.priority,
  dedupKey: a.dedupKey,
  updatedAt: a.updatedAt,
  alert: a,
});
const titles = (l: AlertList | typeof RELOAD) => (l === RELOAD ? RELOAD : l.items.map((a) => a.title));

describe('live patching of the active list', () => {
  it('puts a new alert where the server would: by priority then age, or newest first', () => {
    const low = alert({ priority: 'low', title: 'low' });
    const crit = alert({ priority: 'critical', title: 'crit old' });
    const fresh = alert({ priority: 'critical', title: 'crit new' });
    const byPriority = list([crit, low]);
    expect(titles(patchActiveList(byPriority, filter(), ev(fresh), ME))).toEqual(['crit old', 'crit new', 'low']);
    const newest = list([crit, low].sort(compareAlerts('newest')));
    expect(titles(patchActiveList(newest, filter({ sort: 'newest' }), ev(fresh), ME))).toEqual(['crit new', 'crit old', 'low']);
    const r = patchActiveList(byPriority, filter(), ev(fresh), ME) as AlertList;
    expect(r.total).toBe(3);
  });

  it('keeps a full first page at its size and counts what falls beyond it', () => {
    const a = alert({ priority: 'high', title: 'a' });
    const b = alert({ priority: 'high', title: 'b' });
    const page = list([a, b], 5, 2);
    const r = patchActiveList(page, filter({ pageSize: 2 }), ev(alert({ priority: 'critical', title: 'c' })), ME) as AlertList;
    expect(titles(r)).toEqual(['c', 'a']);
    expect(r.total).toBe(6);
    const later = patchActiveList(page, filter({ pageSize: 2 }), ev(alert({ priority: 'info', title: 'i' })), ME) as AlertList;
    expect(titles(later)).toEqual(['a', 'b']);
    expect(later.total).toBe(6);
  });

  it('updates an alert in place, and drops one that no longer belongs', () => {
    const a = alert({ title: 'a' });
    const b = alert({ title: 'b' });
    const acked = { ...a, status: 'acknowledged' as const };
    const r = patchActiveList(list([a, b]), filter(), ev(acked, 'updated'), ME) as AlertList;
    expect(r.items[0].status).toBe('acknowledged');
    const onlyNew = patchActiveList(list([a, b]), filter({ status: 'new' }), ev(acked, 'updated'), ME) as AlertList;
    expect(titles(onlyNew)).toEqual(['b']);
    expect(onlyNew.total).toBe(1);
    const resolved = patchActiveList(list([a, b]), filter(), ev({ ...b, status: 'resolved' }, 'updated'), ME) as AlertList;
    expect(titles(resolved)).toEqual(['a']);
  });

  it('follows the client and assignee filters, "me" being the viewer', () => {
    const mine = alert({ assignedTo: ME, title: 'mine' });
    const theirs = alert({ assignedTo: 'someone', title: 'theirs' });
    expect(titles(patchActiveList(list([]), filter({ assignee: 'me' }), ev(mine), ME))).toEqual(['mine']);
    expect(titles(patchActiveList(list([]), filter({ assignee: 'me' }), ev(theirs), ME))).toEqual([]);
    expect(titles(patchActiveList(list([]), filter({ assignee: 'unassigned' }), ev(alert({ title: 'nobody' })), ME))).toEqual(['nobody']);
    expect(titles(patchActiveList(list([]), filter({ clientId: 'c1' }), ev(alert({ clientId: 'c2', title: 'other' })), ME))).toEqual([]);
  });

  it('follows the "has ticket" filter: an alert joins the list of ticketed alerts when its ticket is opened', () => {
    const a = alert({ title: 'a' });
    const withTicket = filter({ hasTicket: true });
    expect(titles(patchActiveList(list([]), withTicket, ev(a), ME))).toEqual([]);
    const ticketed = { ...a, ticket: { number: '1000', url: null } };
    expect(titles(patchActiveList(list([]), withTicket, ev(ticketed, 'updated'), ME))).toEqual(['a']);
    expect(titles(patchActiveList(list([a]), filter({ hasTicket: false }), ev(ticketed, 'updated'), ME))).toEqual([]);
  });

  it('asks the server when the change alone cannot say: a search, a later page, a gap to fill, an alert of unknown past', () => {
    const a = alert();
    expect(patchActiveList(list([a]), filter({ q: 'disk' }), ev(alert()), ME)).toBe(RELOAD);
    expect(patchActiveList(list([a]), filter({ page: 2 }), ev(alert()), ME)).toBe(RELOAD);
    // Leaving a page that had more behind it: the next one moves up.
    expect(patchActiveList(list([a], 3, 1), filter({ pageSize: 1 }), ev({ ...a, status: 'resolved' }, 'updated'), ME)).toBe(RELOAD);
    // An updated alert not on a page with more behind it may already be counted there.
    expect(patchActiveList(list([a], 3, 1), filter({ pageSize: 1 }), ev(alert(), 'updated'), ME)).toBe(RELOAD);
  });
});

describe('live patching of the stat cards', () => {
  const stats: AlertStats = { critical: 1, high: 0, medium: 2, low: 1, info: 0, lowInfo: 1, total: 4, hasAlerts: true, pagedNobody: 0 };
  it('counts a new alert, a priority change and a resolution', () => {
    const created = alert({ priority: 'critical' });
    expect(patchStats(stats, undefined, ev(created))).toMatchObject({ critical: 2, total: 5 });
    const was = alert({ priority: 'medium' });
    expect(patchStats(stats, was, ev({ ...was, priority: 'low' }, 'updated'))).toMatchObject({ medium: 1, low: 2, lowInfo: 2, total: 4 });
    expect(patchStats(stats, was, ev({ ...was, status: 'resolved' }, 'updated'))).toMatchObject({ medium: 1, total: 3 });
    expect(patchStats({ ...stats, hasAlerts: false }, undefined, ev(alert()))).toMatchObject({ hasAlerts: true });
  });
  it('counts an alert once when it is marked as having paged nobody', () => {
    const mark = { at: '2026-11-24T10:00:01.000Z', reason: 'no_policy' as const };
    const shown = alert({ priority: 'high' });
    const marked = { ...shown, pagedNobody: mark };
    expect(patchStats(stats, shown, ev(marked, 'updated'))).toMatchObject({ pagedNobody: 1, high: 0, total: 4 });
    // Told again (another change of the same alert): already counted.
    expect(patchStats({ ...stats, pagedNobody: 1 }, marked, ev({ ...marked, status: 'acknowledged' }, 'updated'))).toMatchObject({ pagedNobody: 1 });
    // Loaded marked with its creation (the mark came in the same moment).
    expect(patchStats(stats, undefined, ev(alert({ pagedNobody: mark })))).toMatchObject({ pagedNobody: 1, total: 5 });
    // Not active before and not new: it may have been counted already.
    expect(patchStats(stats, null, ev(alert({ pagedNobody: mark }), 'updated'))).toBe(RELOAD);
  });
  it('asks the server when the alert’s past is unknown', () => {
    expect(patchStats(stats, undefined, ev(alert(), 'updated'))).toBe(RELOAD);
    // Known not to have been active (absent from a complete list): it counts as new.
    expect(patchStats(stats, null, ev(alert({ priority: 'high' }), 'updated'))).toMatchObject({ high: 1, total: 5 });
  });
});

describe('a live change that arrives while the list is first being loaded', () => {
  const tenantId = 't';
  const key = queryKeys.activeAlerts(tenantId, filter());

  it('asks for the list again (its answer may have been read before the change), and patches a loaded one', async () => {
    const qc = new QueryClient();
    let answer: (l: AlertList) => void = () => undefined;
    const first = qc.fetchQuery({ queryKey: key, queryFn: () => new Promise<AlertList>((resolve) => (answer = resolve)) });
    const fresh = alert({ title: 'arrived meanwhile' });
    // No data yet, a request under way: the change cannot be applied to it, so the caller reloads.
    expect(applyAlertEvent(qc, tenantId, ev(fresh), ME)).toBe(false);
    answer(list([]));
    await first;
    // Once loaded and idle, the same kind of change is applied where it shows, with no request.
    const next = alert({ title: 'arrived later' });
    expect(applyAlertEvent(qc, tenantId, ev(next), ME)).toBe(true);
    expect(titles(qc.getQueryData<AlertList>(key)!)).toEqual(['arrived later']);
  });

  it('does the same for the stat cards', async () => {
    const qc = new QueryClient();
    let answer: (s: AlertStats) => void = () => undefined;
    const first = qc.fetchQuery({ queryKey: queryKeys.alertStats(tenantId), queryFn: () => new Promise<AlertStats>((resolve) => (answer = resolve)) });
    expect(applyAlertEvent(qc, tenantId, ev(alert()), ME)).toBe(false);
    answer({ critical: 0, high: 0, medium: 0, low: 0, info: 0, lowInfo: 0, total: 0, hasAlerts: false, pagedNobody: 0 });
    await first;
  });
});

describe('a live change the stat cards were read after (issue 33: the figures are asked for while the stream subscribes)', () => {
  const tenantId = 't';
  const T = 1_800_000_000_000;
  const read: AlertStats = { critical: 1, high: 0, medium: 0, low: 0, info: 0, lowInfo: 0, total: 1, hasAlerts: true, pagedNobody: 0, readStamp: { instance: 'A', seq: 10, at: T } };
  const heardEv = (a: Alert, heard: AlertStreamEvent['heard']) => ({ ...ev(a), heard });
  const withStats = () => {
    const qc = new QueryClient();
    const fetched: number[] = [];
    qc.setQueryDefaults(queryKeys.alertStats(tenantId), { queryFn: () => (fetched.push(1), read) });
    qc.setQueryData(queryKeys.alertStats(tenantId), read);
    return { qc, fetched, stats: () => qc.getQueryData<AlertStats>(queryKeys.alertStats(tenantId))! };
  };

  it('does not count twice an alert the figures already hold (heard before they were read)', () => {
    const { qc, stats } = withStats();
    expect(applyAlertEvent(qc, tenantId, heardEv(alert({ priority: 'critical' }), { instance: 'A', seq: 9, at: T - 5 }), ME)).toBe(true);
    expect(stats()).toMatchObject({ critical: 1, total: 1 });
  });

  it('counts one heard well after the read, and asks again for one heard about when they were read', async () => {
    const { qc, stats } = withStats();
    expect(applyAlertEvent(qc, tenantId, heardEv(alert({ priority: 'critical' }), { instance: 'A', seq: 11, at: T + 5_000 }), ME)).toBe(true);
    expect(stats()).toMatchObject({ critical: 2, total: 2 });
    // Heard just after the read began: the answer may or may not hold it; the figures are not patched but asked for.
    qc.getQueryCache().find({ queryKey: queryKeys.alertStats(tenantId) })!.setState({ dataUpdatedAt: Date.now() });
    const before = stats();
    expect(applyAlertEvent(qc, tenantId, heardEv(alert({ priority: 'high' }), { instance: 'A', seq: 12, at: T + 5 }), ME)).toBe(true);
    expect(stats()).toBe(before);
    expect(qc.getQueryState(queryKeys.alertStats(tenantId))?.isInvalidated).toBe(true);
  });

  it('counts a change from a server that says nothing of when it heard it, as before', () => {
    const { qc, stats } = withStats();
    expect(applyAlertEvent(qc, tenantId, ev(alert({ priority: 'critical' })), ME)).toBe(true);
    expect(stats()).toMatchObject({ critical: 2, total: 2 });
  });
});
