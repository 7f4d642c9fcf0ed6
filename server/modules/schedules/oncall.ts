import { DateTime } from 'luxon';
import { SCHEDULE_MSG, WEEKDAY_KEYS, type Rotations, type Shift } from '../../../contract/schedules.ts';
import { layerAt, type LayerSpec } from './layers.ts';
import { wallTime, zoneClock } from './zone-clock.ts';

/**
 * Who is on call, computed from a schedule's weekly rotation and its overrides. Pure: no database, no clock. Shift
 * hours are wall-clock hours in the schedule's zone, resolved by Luxon, so a shift 1 AM – 9 AM lasts 7 real hours on
 * the night the clocks go forward and 9 on the night they go back.
 */
export interface ScheduleSpec {
  timeZone: string;
  /** YYYY-MM-DD, first day of coverage. */
  startDate: string;
  /** YYYY-MM-DD, last day of coverage (inclusive). */
  endDate: string;
  rotations: Rotations;
  /**
   * Rotation layers (issue 27), lowest first: a higher layer's person wins where it has someone; the weekday template
   * (rotations) lies beneath them all and gives the secondary. Absent or empty: the template alone, as before layers.
   */
  layers?: LayerSpec[];
}

export interface OverrideSpec {
  replacedUserId: string;
  userId: string;
  /** Epoch milliseconds. */
  startsAt: number;
  endsAt: number;
  /** Later overrides win over earlier ones for the same person and time. */
  createdAt: string;
}

export interface OnCallAt {
  primary: string | null;
  secondary: string | null;
  primaryOverride: boolean;
  secondaryOverride: boolean;
  /** When this shift (or the override inside it) ends; null when nobody is on call. Epoch milliseconds. */
  endsAt: number | null;
}

/** One stretch with the same people (primary null: nobody on call). */
export interface Piece {
  start: number;
  end: number;
  primary: string | null;
  secondary: string | null;
  primaryOverride: boolean;
  secondaryOverride: boolean;
  /** Inside the schedule's dates (a stretch without primary there is a coverage gap). */
  inPeriod: boolean;
}

const NOBODY: OnCallAt = { primary: null, secondary: null, primaryOverride: false, secondaryOverride: false, endsAt: null };

// Zone arithmetic is the costly part of a lookup (Luxon asks Intl for offsets); a schedule's bounds only change with
// its dates or zone, so they are kept by those (bounded: cleared when it grows past a few thousand schedules).
const coverageCache = new Map<string, { start: number; end: number }>();

/** [start, end) of the schedule's dates in epoch milliseconds: 00:00 of the start date to 24:00 of the end date. */
export function coverage(s: ScheduleSpec): { start: number; end: number } {
  const key = `${s.timeZone}|${s.startDate}|${s.endDate}`;
  const hit = coverageCache.get(key);
  if (hit) return hit;
  const start = DateTime.fromISO(s.startDate, { zone: s.timeZone }).startOf('day');
  const end = DateTime.fromISO(s.endDate, { zone: s.timeZone }).plus({ days: 1 }).startOf('day');
  const value = { start: start.toMillis(), end: end.toMillis() };
  if (coverageCache.size >= 5_000) coverageCache.clear();
  coverageCache.set(key, value);
  return value;
}

/** The instant a wall-clock hour (0–24) of a local day happens; a missing hour (clocks forward) moves later. */
const wallClock = (day: DateTime, hour: number): number => wallTime(day, hour * 60);

const weekdayKey = (d: DateTime) => WEEKDAY_KEYS[d.weekday % 7];

/** The rotation's shift at `at` with its real start and end (clipped to the schedule's dates), or null. */
export function shiftAt(s: ScheduleSpec, at: number, cov = coverage(s)): { shift: Shift; start: number; end: number } | null {
  if (at < cov.start || at >= cov.end) return null;
  const { hour: h, weekday, day } = zoneClock(s.timeZone, at);
  const shift = s.rotations[WEEKDAY_KEYS[weekday % 7]]?.find((x) => x.startHour <= h && h < x.endHour);
  if (!shift) return null;
  return { shift, start: Math.max(wallClock(day, shift.startHour), cov.start), end: Math.min(wallClock(day, shift.endHour), cov.end) };
}

/**
 * The override that puts someone else in `person`'s place at `at` (the latest made wins; made in the same millisecond,
 * the later starting one, as overrides come ordered by start), if any.
 */
function replacementAt(overrides: readonly OverrideSpec[], person: string | null, at: number): OverrideSpec | undefined {
  if (!person) return undefined;
  let found: OverrideSpec | undefined;
  for (const o of overrides) {
    if (o.replacedUserId === person && o.startsAt <= at && at < o.endsAt && (!found || o.createdAt >= found.createdAt)) found = o;
  }
  return found;
}

/**
 * The people of a layered schedule at `at`, overrides aside, as the template's `shiftAt` gives them (a pseudo-shift
 * with its end: the next handoff, window edge or template shift change); null when nobody is on call.
 */
function layeredAt(s: ScheduleSpec, at: number, cov: { start: number; end: number }): { shift: Shift; start: number; end: number } | null {
  const base = layeredBase(s, at, cov);
  if (!base.primary) return null;
  // The stretch runs on while the same people stay (a template day ending under a layer's week changes nobody).
  let end = base.end;
  for (let steps = 0; steps < 64 && Number.isFinite(end); steps++) {
    const next = layeredBase(s, end, cov);
    if (next.primary !== base.primary || next.secondary !== base.secondary || next.end <= end) break;
    end = next.end;
  }
  return { shift: { startHour: 0, endHour: 24, primaryOnCall: base.primary, secondaryOnCall: base.secondary }, start: at, end };
}

/** Who the layers and the template put on call at `at` (primary null: nobody), and the next moment that may change. */
export function layeredBase(s: ScheduleSpec, at: number, cov = coverage(s)): { primary: string | null; secondary: string | null; end: number } {
  if (at < cov.start) return { primary: null, secondary: null, end: cov.start };
  if (at >= cov.end) return { primary: null, secondary: null, end: Number.POSITIVE_INFINITY };
  const template = shiftAt(s, at, cov);
  let end = template ? template.end : (nextShiftStart(s, at, cov) ?? cov.end);
  let primary: string | null = null;
  const layers = s.layers ?? [];
  for (let i = layers.length - 1; i >= 0; i--) {
    const l = layerAt(layers[i], s.timeZone, at);
    if (l.end < end) end = l.end;
    if (!primary && l.userId) primary = l.userId;
  }
  primary ??= template?.shift.primaryOnCall ?? null;
  const secondary = template?.shift.secondaryOnCall ?? null;
  return { primary, secondary: secondary === primary ? null : secondary, end: Math.min(end, cov.end) };
}

/** The people of the rotation at `at`, overrides applied, and when that changes next. */
export function onCallAt(s: ScheduleSpec, overrides: readonly OverrideSpec[], at: number, cov = coverage(s)): OnCallAt {
  const current = s.layers?.length ? layeredAt(s, at, cov) : shiftAt(s, at, cov);
  if (!current) return NOBODY;
  const { primaryOnCall, secondaryOnCall } = current.shift;
  const p = replacementAt(overrides, primaryOnCall, at);
  const sec = replacementAt(overrides, secondaryOnCall, at);
  let endsAt = current.end;
  // An override of one of this shift's people that starts or ends before the shift does changes who is on call there.
  for (const o of overrides) {
    if (o.replacedUserId !== primaryOnCall && o.replacedUserId !== secondaryOnCall) continue;
    if (o.startsAt > at && o.startsAt < endsAt) endsAt = o.startsAt;
    if (o.endsAt > at && o.endsAt < endsAt) endsAt = o.endsAt;
  }
  return {
    primary: p ? p.userId : primaryOnCall,
    secondary: sec ? sec.userId : secondaryOnCall,
    primaryOverride: !!p,
    secondaryOverride: !!sec,
    endsAt,
  };
}

/**
 * Everything from `from` to `to` as consecutive stretches: the rotation's shifts split where overrides begin and end,
 * nobody's stretches between them, adjacent stretches with the same people joined.
 */
export function pieces(s: ScheduleSpec, overrides: readonly OverrideSpec[], from: number, to: number): Piece[] {
  const cov = coverage(s);
  const raw: Piece[] = [];
  const push = (start: number, end: number, shift: Shift | null) => {
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (b <= a) return;
    const inPeriod = a >= cov.start && a < cov.end;
    if (!shift || !inPeriod) {
      raw.push({ start: a, end: b, primary: null, secondary: null, primaryOverride: false, secondaryOverride: false, inPeriod });
      return;
    }
    // Split the shift at every override boundary of its people inside it.
    const cuts = new Set<number>([a, b]);
    for (const o of overrides) {
      if (o.replacedUserId !== shift.primaryOnCall && o.replacedUserId !== shift.secondaryOnCall) continue;
      if (o.startsAt > a && o.startsAt < b) cuts.add(o.startsAt);
      if (o.endsAt > a && o.endsAt < b) cuts.add(o.endsAt);
    }
    const sorted = [...cuts].sort((x, y) => x - y);
    for (let i = 0; i + 1 < sorted.length; i++) {
      const t = sorted[i];
      const p = replacementAt(overrides, shift.primaryOnCall, t);
      const sec = replacementAt(overrides, shift.secondaryOnCall, t);
      raw.push({
        start: t,
        end: sorted[i + 1],
        primary: p ? p.userId : shift.primaryOnCall,
        secondary: sec ? sec.userId : shift.secondaryOnCall,
        primaryOverride: !!p,
        secondaryOverride: !!sec,
        inPeriod: true,
      });
    }
  };

  if (s.layers?.length) {
    // Layered: stretch by stretch, each ending where a layer hands off, a window opens or closes, or the template moves.
    for (let t = from; t < to; ) {
      const base = layeredBase(s, t, cov);
      const end = Math.min(to, base.end > t ? base.end : t + 3600_000);
      push(t, end, base.primary ? { startHour: 0, endHour: 24, primaryOnCall: base.primary, secondaryOnCall: base.secondary } : null);
      t = end;
    }
  }
  // Day by day in the schedule's zone; each day's hours split at the period's bounds so inPeriod is exact.
  let day = DateTime.fromMillis(from, { zone: s.timeZone }).startOf('day');
  while (!s.layers?.length && day.toMillis() < to) {
    const shifts = [...(s.rotations[weekdayKey(day)] ?? [])].sort((x, y) => x.startHour - y.startHour);
    let hour = 0;
    const emit = (start: number, end: number, shift: Shift | null) => {
      for (const [a, b] of splitAt(start, end, [cov.start, cov.end])) push(a, b, shift);
    };
    for (const sh of shifts) {
      if (sh.startHour > hour) emit(wallClock(day, hour), wallClock(day, sh.startHour), null);
      emit(wallClock(day, sh.startHour), wallClock(day, sh.endHour), sh);
      hour = Math.max(hour, sh.endHour);
    }
    if (hour < 24) emit(wallClock(day, hour), wallClock(day, 24), null);
    day = day.plus({ days: 1 }).startOf('day');
  }

  const out: Piece[] = [];
  for (const p of raw) {
    const last = out[out.length - 1];
    if (
      last &&
      last.end === p.start &&
      last.primary === p.primary &&
      last.secondary === p.secondary &&
      last.primaryOverride === p.primaryOverride &&
      last.secondaryOverride === p.secondaryOverride &&
      last.inPeriod === p.inPeriod
    ) {
      last.end = p.end;
    } else out.push({ ...p });
  }
  return out;
}

function splitAt(start: number, end: number, points: number[]): Array<[number, number]> {
  const cuts = [start, ...points.filter((x) => x > start && x < end).sort((a, b) => a - b), end];
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < cuts.length; i++) if (cuts[i + 1] > cuts[i]) out.push([cuts[i], cuts[i + 1]]);
  return out;
}

/** "No one on call Sat 12 AM – 8 AM", in the schedule's zone. */
export function gapLabel(timeZone: string, start: number, end: number): string {
  const a = DateTime.fromMillis(start, { zone: timeZone }).setLocale('en-US');
  const b = DateTime.fromMillis(end, { zone: timeZone }).setLocale('en-US');
  const t = (d: DateTime) => d.toFormat(d.minute ? 'h:mm a' : 'h a');
  const sameDay = a.hasSame(b, 'day');
  return `${SCHEDULE_MSG.nobodyOnCall} ${a.toFormat('ccc')} ${t(a)} – ${sameDay ? t(b) : `${b.toFormat('ccc')} ${t(b)}`}`;
}

/** The stretches with someone on call, and the gaps (nobody on call inside the schedule's dates), from..to. */
export function timeline(s: ScheduleSpec, overrides: readonly OverrideSpec[], from: number, to: number) {
  const all = pieces(s, overrides, from, to);
  return {
    segments: all.filter((p) => p.primary !== null),
    gaps: all.filter((p) => p.primary === null && p.inPeriod).map((p) => ({ start: p.start, end: p.end, label: gapLabel(s.timeZone, p.start, p.end) })),
  };
}

const finite = (t: number) => (Number.isFinite(t) ? t : null);

/** When the next shift of the rotation starts at or after `at` (within a week), clipped to the dates; or null. */
export function nextShiftStart(s: ScheduleSpec, at: number, cov: { start: number; end: number }): number | null {
  if (at >= cov.end) return null;
  const from = Math.max(at, cov.start);
  let day = DateTime.fromMillis(from, { zone: s.timeZone }).startOf('day');
  for (let i = 0; i < 8; i++) {
    for (const sh of s.rotations[weekdayKey(day)] ?? []) {
      const start = wallClock(day, sh.startHour);
      if (start >= from) return start < cov.end ? start : null;
      // A shift already running at `from` (the caller found nobody there only when `from` moved to cov.start).
      if (wallClock(day, sh.endHour) > from) return from;
    }
    day = day.plus({ days: 1 }).startOf('day');
  }
  return null;
}

/** The next change of people after `at` within `horizonMs`: when, and who then (nobody: nulls); null if none. */
export function nextHandover(s: ScheduleSpec, overrides: readonly OverrideSpec[], at: number, horizonMs: number) {
  const cov = coverage(s);
  const until = at + horizonMs;
  let cur = onCallAt(s, overrides, at, cov);
  let t = at;
  // Walk from shift end to shift end (about three a day) until the people change.
  for (let steps = 0; steps < 200; steps++) {
    const boundary = cur.endsAt ?? (s.layers?.length ? finite(layeredBase(s, t, cov).end) : nextShiftStart(s, t, cov));
    if (boundary === null || boundary >= until || boundary <= t) return null;
    const next = onCallAt(s, overrides, boundary, cov);
    if (next.primary !== cur.primary || next.secondary !== cur.secondary) return { at: boundary, primary: next.primary, secondary: next.secondary };
    t = boundary;
    cur = next;
  }
  return null;
}
