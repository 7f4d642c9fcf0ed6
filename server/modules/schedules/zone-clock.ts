import { DateTime } from 'luxon';

/**
 * What a moment reads in a zone, cached (issue 27's speed goal: who is on call in ≤ 2 ms with three layers). Luxon
 * asks Intl for each zone offset, the costly part of every look-up. Two caches, both bounded:
 * - local days, by zone and local date: a day without a clock change lasts 24 hours, so a moment's local hour in it, and
 *   the instant of any wall-clock time of it, are plain arithmetic from its start;
 * - quarter hours, by zone (every zone's offsets and clock changes are whole quarter hours, so a moment reads as its
 *   quarter hour does): for the days the clocks change, and to find a moment's day the first time.
 */
export interface ZoneClock {
  /** Local hour (0–23) and weekday (Luxon's: 1 Monday … 7 Sunday). */
  hour: number;
  weekday: number;
  /** The start of the local day. */
  day: DateTime;
}

interface LocalDay {
  day: DateTime;
  start: number;
  end: number;
  /** 24 hours long: no clock change that day. */
  even: boolean;
}

const QUARTER_MS = 900_000;
const HOUR_MS = 3600_000;
const DAY_MS = 86_400_000;
const quarters = new Map<string, ZoneClock>();
const localDays = new Map<string, LocalDay>();
/** Each zone's last offset seen (ms): the first guess of a moment's local date. */
const lastOffset = new Map<string, number>();

const dayKey = (zone: string, day: DateTime) => `${zone}|${Math.floor((day.toMillis() + day.offset * 60_000) / DAY_MS)}`;

function remember(zone: string, at: DateTime): LocalDay {
  const day = at.hour === 0 && at.minute === 0 && at.second === 0 && at.millisecond === 0 ? at : at.startOf('day');
  const key = dayKey(zone, day);
  let hit = localDays.get(key);
  if (!hit) {
    const start = day.toMillis();
    const end = day.plus({ days: 1 }).startOf('day').toMillis();
    hit = { day, start, end, even: end - start === DAY_MS };
    if (localDays.size >= 20_000) localDays.clear();
    localDays.set(key, hit);
    lastOffset.set(zone, day.offset * 60_000);
  }
  return hit;
}

export function zoneClock(zone: string, at: number): ZoneClock {
  const guess = lastOffset.get(zone);
  if (guess !== undefined) {
    const d = localDays.get(`${zone}|${Math.floor((at + guess) / DAY_MS)}`);
    if (d && d.even && d.start <= at && at < d.end) return { hour: Math.floor((at - d.start) / HOUR_MS), weekday: d.day.weekday, day: d.day };
  }
  const quarter = Math.floor(at / QUARTER_MS);
  const key = `${zone}|${quarter}`;
  let hit = quarters.get(key);
  if (!hit) {
    const local = DateTime.fromMillis(quarter * QUARTER_MS, { zone });
    hit = { hour: local.hour, weekday: local.weekday, day: local.startOf('day') };
    if (quarters.size >= 50_000) quarters.clear();
    quarters.set(key, hit);
  }
  remember(zone, hit.day);
  return hit;
}

/**
 * The instant of a wall-clock time (minutes after midnight, up to 24 h) of a local day; a time the clocks skip moves
 * later, as Luxon's `set` does.
 */
export function wallTime(day: DateTime, minutes: number): number {
  const d = remember(day.zoneName!, day);
  if (d.even || minutes <= 0) return d.start + minutes * 60_000;
  if (minutes >= 1440) return d.end;
  return day.set({ hour: Math.floor(minutes / 60), minute: minutes % 60 }).toMillis();
}

/** The local day after `day` (a day lasts 23 to 25 hours: 30 hours on lands in the next). */
export const nextLocalDay = (day: DateTime) => zoneClock(day.zoneName!, day.toMillis() + 30 * HOUR_MS).day;
/** The local day before `day`. */
export const previousLocalDay = (day: DateTime) => zoneClock(day.zoneName!, day.toMillis() - 12 * HOUR_MS).day;

/** A bounded memo for pure zone arithmetic keyed by text. */
export function memo<T>(size: number): (key: string, make: () => T) => T {
  const cache = new Map<string, T>();
  return (key, make) => {
    let v = cache.get(key);
    if (v === undefined) {
      v = make();
      if (cache.size >= size) cache.clear();
      cache.set(key, v);
    }
    return v;
  };
}
