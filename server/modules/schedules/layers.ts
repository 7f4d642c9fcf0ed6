import { DateTime } from 'luxon';

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

/** The instant of handoff k (k = 0 is the layer's start). */
export function handoff(layer: LayerSpec, zone: string, k: number): number {
  if (layer.unit === 'hours') return layer.start + k * layer.count * NOMINAL_MS.hours;
  return DateTime.fromMillis(layer.start, { zone }).plus({ [layer.unit]: k * layer.count }).toMillis();
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

/** The restriction windows (local) that start on the days around `at`, as instants, sorted by start. */
function windowsAround(restrictions: readonly LayerRestriction[], zone: string, at: number, daysAhead: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const first = DateTime.fromMillis(at, { zone }).startOf('day').minus({ days: 1 });
  for (let i = 0; i <= daysAhead + 1; i++) {
    const day = first.plus({ days: i });
    const weekday = day.weekday % 7;
    for (const r of restrictions) {
      if (!r.days.includes(weekday)) continue;
      const start = day.plus({ minutes: r.from }).toMillis();
      const endDay = r.to <= r.from ? day.plus({ days: 1 }) : day;
      out.push([start, endDay.plus({ minutes: r.to }).toMillis()]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** The layer at `at`: its participant when a shift runs and a restriction window (if any) is open, and until when. */
export function layerAt(layer: LayerSpec, zone: string, at: number): LayerAt {
  if (layer.participants.length === 0) return { userId: null, end: FAR };
  if (at < layer.start) return { userId: null, end: layer.start };
  const shift = shiftIndex(layer, zone, at)!;
  const person = layer.participants[shift.k % layer.participants.length];
  if (layer.restrictions.length === 0) return { userId: person, end: shift.end };
  const windows = windowsAround(layer.restrictions, zone, at, 8);
  // Open windows around `at` may touch or overlap: the stretch runs to the end of the chain.
  let open: number | null = null;
  for (const [a, b] of windows) {
    if (a <= at && at < b) open = Math.max(open ?? b, b);
    else if (open !== null && a <= open && b > open) open = b;
  }
  if (open !== null) return { userId: person, end: Math.min(open, shift.end) };
  const next = windows.find(([a]) => a > at);
  return { userId: null, end: next ? next[0] : at + 7 * NOMINAL_MS.days };
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
