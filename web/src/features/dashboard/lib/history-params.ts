import { useSearchParams } from 'react-router';
import { ALERT_PRIORITIES, HISTORY_STATUSES } from '../../../../../contract/alerts.ts';
import { oneOf, paramsUpdater, putParam, text } from '../../../lib/search-params.ts';

/** The history's ranges of resolution time: the presets (ending now) and one of calendar days. */
export const HISTORY_RANGES = ['24h', '7d', '30d', 'custom'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];
export const RANGE_LABELS: Record<HistoryRange | 'all', string> = {
  all: 'Any time',
  '24h': 'Last 24 h',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Custom range',
};
const PRESET_MS: Record<Exclude<HistoryRange, 'custom'>, number> = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

/** What the history shows, as its address holds it (a reload or a shared link shows the same). */
export interface HistoryView {
  status: string;
  priority: string;
  clientId?: string;
  q?: string;
  range: HistoryRange | 'all';
  /** The first and last calendar day of a custom range, in the viewer's zone (YYYY-MM-DD); either may be open. */
  from?: string;
  to?: string;
  page: number;
}
export type HistoryKey = 'status' | 'priority' | 'clientId' | 'q' | 'range' | 'from' | 'to';


/** The local calendar day `YYYY-MM-DD` as a Date at its midnight (the viewer's zone), or null when it is no day. */
function localDay(value: string | undefined): Date | null {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setFullYear(Number(m[1])); // years 0–99 are not 1900–1999
  return d.getFullYear() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]) ? d : null;
}

/** A Date's calendar day in the viewer's zone, as a date input holds it. */
export const dayOf = (d: Date) => `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The view in the address; unknown values fall back to the defaults, a day that is none to an open end. */
export function readHistoryView(p: URLSearchParams): HistoryView {
  const page = Number(p.get('page'));
  const range = oneOf(HISTORY_RANGES, p.get('range')) ?? 'all';
  const day = (key: 'from' | 'to') => (range === 'custom' && localDay(p.get(key) ?? undefined) ? p.get(key)! : undefined);
  return {
    status: oneOf(HISTORY_STATUSES, p.get('status')) ?? 'all',
    priority: oneOf(ALERT_PRIORITIES, p.get('priority')) ?? 'all',
    clientId: text(p.get('clientId'), 100),
    q: text(p.get('q'), 200),
    range,
    from: day('from'),
    to: day('to'),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** False when a custom range's first day comes after its last (nothing is asked of the server then). */
export const rangeInOrder = (v: Pick<HistoryView, 'from' | 'to'>) => !v.from || !v.to || v.from <= v.to;

/**
 * The range as the API's instants, worked out at `now` (each request: a preset always ends at the moment it is
 * asked): a preset from that long ago; custom days from the first midnight through the last moment of the last day,
 * in the viewer's zone.
 */
export function rangeBounds(v: Pick<HistoryView, 'range' | 'from' | 'to'>, now: number): { from?: string; to?: string } {
  if (v.range === 'all') return {};
  if (v.range !== 'custom') return { from: new Date(now - PRESET_MS[v.range]).toISOString() };
  const first = localDay(v.from);
  const last = localDay(v.to);
  const next = last && new Date(last);
  next?.setDate(next.getDate() + 1); // the next midnight, whatever the day's length (a DST change)
  return { from: first?.toISOString(), to: next ? new Date(next.getTime() - 1).toISOString() : undefined };
}

/** The query of the history's API for a view (`page` for the list; the export takes the rest). */
export function historyApiQuery(v: HistoryView, now: number) {
  return {
    status: v.status === 'all' ? undefined : v.status,
    priority: v.priority === 'all' ? undefined : v.priority,
    q: v.q,
    clientId: v.clientId,
    ...rangeBounds(v, now),
  };
}

/** The history's view in the address, and its changes: a filter goes back to page 1 (replacing the entry), a page is an entry of its own. */
export function useHistoryView() {
  const [params, setParams] = useSearchParams();
  const view = readHistoryView(params);
  const update = paramsUpdater(setParams);
  return {
    view,
    /** Sets filters (back to page 1); a range other than custom drops the custom days. */
    setFilter: (patch: Partial<Record<HistoryKey, string | null>>) =>
      update((p) => {
        for (const [key, value] of Object.entries(patch)) putParam(p, key, value);
        if (patch.range !== undefined && patch.range !== 'custom') ['from', 'to'].forEach((k) => p.delete(k));
        p.delete('page');
      }, true),
    setPage: (n: number) => update((p) => putParam(p, 'page', String(n)), false),
    clearFilters: () => update((p) => ['status', 'priority', 'clientId', 'q', 'range', 'from', 'to', 'page'].forEach((k) => p.delete(k)), true),
    /** How many filters narrow the history. */
    activeFilters: [view.status !== 'all', view.priority !== 'all', !!view.clientId, !!view.q, view.range !== 'all'].filter(Boolean).length,
  };
}
