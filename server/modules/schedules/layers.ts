import { DateTime } from 'luxon';
import { memo, nextLocalDay, previousLocalDay, wallTime, zoneClock } from './zone-clock.ts';

/**
 * Rotation layers (issue 27): a layer hands the pager from one participant to the next every `count` hours, days or
 * weeks from its first handoff, in the schedule's zone. Days and weeks are calendar days and weeks (Luxon's `plus`),
 * so a handoff at 09:00 stays at 09:00 across daylight-saving changes; hours are real hours. Restrictions keep a layer
 * to windows of the week ("weekdays 09:00–17:00"); outside them the layer has nobody and lower layers show through.
 * Pure: no database, no clock.
 */
export interface LayerRestriction {
  /** Weekdays the window starts on: 0 (Sunday) to 6 (Saturday). */
  days: number[];
  /** Minutes after local midnight; `to` ≤ `from` means the window ends the next day. */
  from: number;
  to: number;
}

export interface LayerSpec {
  name: string;
  participants: string[];
  /** The first handoff, epoch milliseconds. */
  start: number;
  unit: 'hours' | 'days' | 'weeks';
  count: number;
  restrictions: LayerRestriction[];
}

/** Who a layer puts on call at a moment, and until when that stays so (the next handoff or window edge). */
export interface LayerAt {
  userId: string | null;
  end: number;
}

const NOMINAL_MS = { hours: 3600_000, days: 86_400_000, weeks: 7 * 86_400_000 } as const;
const FAR = Number.POSITIVE_INFINITY;

// Handoffs and windows are zone arithmetic (Luxon, Intl): each is worked out once and kept.
const handoffs = memo<number>(50_000);
const windowDays = memo<Array<[number, number]>>(20_000);

/** The instant of handoff k (k = 0 is the layer's start). */
export function handoff(layer: LayerSpec, zone: string, k: number): number {
  if (layer.unit === 'hours') return layer.start + k * layer.count * NOMINAL_MS.hours;
  return handoffs(`${zone}|${layer.start}|${layer.unit}|${layer.count}|${k}`, () => DateTime.fromMillis(layer.start, { zone }).plus({ [layer.unit]: k * layer.count }).toMillis());
}

/** The shift of the rotation at `at`: its index and bounds (k ≥ 0; null before the first handoff). */
export function shiftIndex(layer: LayerSpec, zone: string, at: number): { k: number; start: number; end: number } | null {
  if (at < layer.start || layer.participants.length === 0) return null;
  let k = Math.floor((at - layer.start) / (layer.count * NOMINAL_MS[layer.unit]));
  // Daylight saving moves a calendar handoff by an hour at most: one step either way corrects the estimate.
  while (k > 0 && handoff(layer, zone, k) > at) k--;
  while (handoff(layer, zone, k + 1) <= at) k++;
  return { k, start: handoff(layer, zone, k), end: handoff(layer, zone, k + 1) };
}

/** The restriction windows (local instants) that start on one local day, sorted by start. */
function dayWindows(restrictions: readonly LayerRestriction[], key: string, zone: string, day: DateTime): Array<[number, number]> {
  return windowDays(`${zone}|${day.toMillis()}|${key}`, () => {
    const out: Array<[number, number]> = [];
    const weekday = day.weekday % 7;
    for (const r of restrictions) {
      if (!r.days.includes(weekday)) continue;
      out.push([wallTime(day, r.from), wallTime(r.to <= r.from ? nextLocalDay(day) : day, r.to)]);
    }
    return out.sort((x, y) => x[0] - y[0]);
  });
}

// A layer's restrictions as text, the windows' cache key: made once per list (a look-up asks many times).
const restrictionKeys = new WeakMap<readonly LayerRestriction[], string>();
function restrictionKey(restrictions: readonly LayerRestriction[]): string {
  let key = restrictionKeys.get(restrictions);
  if (key === undefined) restrictionKeys.set(restrictions, (key = restrictions.map((r) => `${r.days.join(',')}/${r.from}/${r.to}`).join(';')));
  return key;
}

/**
 * Whether a restriction window is open at `at` (until when: open windows that touch or overlap make one stretch), or
 * else when the next one opens (within 10 days; null when none does). Days are read from yesterday on, only as far as
 * the answer needs. Window edges are wall-clock times: 06:00 is 06:00 on the night the clocks change too.
 */
function windowAt(restrictions: readonly LayerRestriction[], zone: string, at: number, until: number): { open: number | null; next: number | null } {
  const key = restrictionKey(restrictions);
  let day = previousLocalDay(zoneClock(zone, at).day);
  let open: number | null = null;
  for (let i = 0; i < 11; i++, day = nextLocalDay(day)) {
    for (const [a, b] of dayWindows(restrictions, key, zone, day)) {
      if (a <= at && at < b) open = Math.max(open ?? b, b);
      else if (open !== null && a <= open) open = Math.max(open, b);
      else if (a > at) return open !== null ? { open, next: null } : { open: null, next: a };
    }
    if (open !== null && open >= until) break;
  }
  return { open, next: null };
}

/** The layer at `at`: its participant when a shift runs and a restriction window (if any) is open, and until when. */
export function layerAt(layer: LayerSpec, zone: string, at: number): LayerAt {
  if (layer.participants.length === 0) return { userId: null, end: FAR };
  if (at < layer.start) return { userId: null, end: layer.start };
  const shift = shiftIndex(layer, zone, at)!;
  const person = layer.participants[shift.k % layer.participants.length];
  if (layer.restrictions.length === 0) return { userId: person, end: shift.end };
  const w = windowAt(layer.restrictions, zone, at, shift.end);
  if (w.open !== null) return { userId: person, end: Math.min(w.open, shift.end) };
  return { userId: null, end: w.next ?? at + 7 * NOMINAL_MS.days };
}

/** The first `n` handoffs at or after `from` with who takes over (for the editor's preview), restrictions aside. */
export function nextHandoffs(layer: LayerSpec, zone: string, from: number, n: number): Array<{ at: number; userId: string }> {
  if (layer.participants.length === 0) return [];
  const current = shiftIndex(layer, zone, from);
  let k = current ? current.k + 1 : 0;
  const out: Array<{ at: number; userId: string }> = [];
  for (; out.length < n; k++) out.push({ at: handoff(layer, zone, k), userId: layer.participants[k % layer.participants.length] });
  return out;
}
