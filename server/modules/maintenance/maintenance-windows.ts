import { DateTime } from 'luxon';
import type { MaintenanceState } from '../../../contract/maintenance.ts';

// When maintenance windows are on, and which alerts they cover: a pure function of the stored windows and the time, so
// every instance decides the same. Weekly occurrences are wall-clock hours in the window's zone, resolved by Luxon
// (a DST change moves the UTC instants, never the local hours).

/** A window as the evaluation reads it. */
export interface WindowSpec {
  id: string;
  name: string;
  kind: 'one_off' | 'weekly';
  startsAt: string | null;
  endsAt: string | null;
  /** 0 = Sunday … 6 = Saturday. */
  days: number[];
  from: string | null;
  to: string | null;
  timeZone: string | null;
  until: string | null;
  clientIds: string[];
  integrationIds: string[];
  endedAt: string | null;
}

/** One occurrence, in epoch milliseconds: [start, end). */
export interface Occurrence {
  start: number;
  end: number;
}

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));
const hm = (s: string) => ({ hour: Number(s.slice(0, 2)), minute: Number(s.slice(3, 5)) });

/** The weekly occurrence that starts on the local day `day` (start of a day in the window's zone), if any. */
function weeklyOn(w: WindowSpec, day: DateTime): Occurrence | null {
  if (!w.days.includes(day.weekday % 7) || !w.from || !w.to) return null;
  const from = hm(w.from);
  const to = hm(w.to);
  const overnight = to.hour * 60 + to.minute <= from.hour * 60 + from.minute;
  const start = day.set({ ...from, second: 0, millisecond: 0 }).toMillis();
  const end = (overnight ? day.plus({ days: 1 }) : day).set({ ...to, second: 0, millisecond: 0 }).toMillis();
  const until = ms(w.until);
  if (until !== null && start >= until) return null;
  return end > start ? { start, end } : null;
}

/** A one-off window's span, cut short by "end now". */
function oneOff(w: WindowSpec): Occurrence | null {
  const start = ms(w.startsAt);
  const endsAt = ms(w.endsAt);
  if (start === null || endsAt === null) return null;
  const ended = ms(w.endedAt);
  const end = ended === null ? endsAt : Math.min(endsAt, ended);
  return end > start ? { start, end } : null;
}

/** "End now" of a weekly window ends the occurrence it was said in, not the ones to come. */
function cut(w: WindowSpec, o: Occurrence): Occurrence | null {
  const ended = ms(w.endedAt);
  if (ended === null || ended < o.start || ended >= o.end) return o;
  return ended > o.start ? { start: o.start, end: ended } : null;
}

/** Weekly occurrences overlapping [from local day − 1, + days]: yesterday's may run past midnight. */
function weeklyAround(w: WindowSpec, at: number, days: number): Occurrence[] {
  const zone = w.timeZone ?? 'UTC';
  const today = DateTime.fromMillis(at, { zone }).startOf('day');
  const out: Occurrence[] = [];
  for (let i = -1; i <= days; i++) {
    const o = weeklyOn(w, today.plus({ days: i }));
    const c = o && cut(w, o);
    if (c) out.push(c);
  }
  return out;
}

/** The occurrence in progress at `at`, if any. */
export function occurrenceAt(w: WindowSpec, at: number): Occurrence | null {
  if (w.kind === 'one_off') {
    const o = oneOff(w);
    return o && o.start <= at && at < o.end ? o : null;
  }
  return weeklyAround(w, at, 0).find((o) => o.start <= at && at < o.end) ?? null;
}

/** The first occurrence that begins after `at`, if any. */
export function nextOccurrence(w: WindowSpec, at: number): Occurrence | null {
  if (w.kind === 'one_off') {
    const o = oneOff(w);
    return o && o.start > at ? o : null;
  }
  return weeklyAround(w, at, 8).find((o) => o.start > at) ?? null;
}

/** The occurrences that overlap [from, to) (epoch ms), in order: a period's maintenance (the report's "done"). */
export function occurrencesBetween(w: WindowSpec, from: number, to: number): Occurrence[] {
  if (to <= from) return [];
  if (w.kind === 'one_off') {
    const o = oneOff(w);
    return o && o.start < to && o.end > from ? [o] : [];
  }
  const days = Math.ceil((to - from) / 86_400_000) + 1;
  return weeklyAround(w, from, days).filter((o) => o.start < to && o.end > from);
}

/** What the list shows of a window at `at`. */
export function windowState(w: WindowSpec, at: number): { state: MaintenanceState; activeUntil: string | null; next: Occurrence | null } {
  const now = occurrenceAt(w, at);
  const next = nextOccurrence(w, at);
  const iso = (t: number) => new Date(t).toISOString();
  if (now) return { state: 'active', activeUntil: iso(now.end), next };
  return { state: next ? 'scheduled' : 'ended', activeUntil: null, next };
}

/** Whether a window's scope takes in an alert of this client and integration (empty scope: the whole tenant). */
export function covers(w: Pick<WindowSpec, 'clientIds' | 'integrationIds'>, alert: { client_id: string | null; integration_id: string | null }) {
  if (w.clientIds.length === 0 && w.integrationIds.length === 0) return true;
  return (alert.client_id !== null && w.clientIds.includes(alert.client_id)) || (alert.integration_id !== null && w.integrationIds.includes(alert.integration_id));
}

/** An alert opened inside a window: which window holds it, and until when (epoch ms). */
export interface Hold {
  windowId: string;
  until: number;
}

interface ActiveWindow {
  id: string;
  end: number;
  whole: boolean;
  clients: Set<string>;
  integrations: Set<string>;
}

/**
 * A tenant's windows as ingestion asks them, alert after alert: which windows are on is worked out once and kept until
 * the next moment any window begins or ends, so an alert costs a look at the (usually no) windows on at the time.
 */
export class MaintenanceCalendar {
  private active: ActiveWindow[] = [];
  private from = Infinity;
  private to = -Infinity;

  constructor(private readonly windows: WindowSpec[]) {}

  get size() {
    return this.windows.length;
  }

  private refresh(at: number) {
    this.active = [];
    this.from = at;
    this.to = Infinity;
    for (const w of this.windows) {
      const o = occurrenceAt(w, at);
      if (o) {
        this.active.push({ id: w.id, end: o.end, whole: w.clientIds.length === 0 && w.integrationIds.length === 0, clients: new Set(w.clientIds), integrations: new Set(w.integrationIds) });
        this.to = Math.min(this.to, o.end);
      }
      const next = nextOccurrence(w, at);
      // Past the look-ahead a weekly window has no next occurrence: look again a day later at the latest.
      this.to = Math.min(this.to, next ? next.start : at + 86_400_000);
    }
  }

  /** The window that holds an alert opened at `at` (of those covering it, the one ending last), or null. */
  holdFor(alert: { client_id: string | null; integration_id: string | null }, at: number): Hold | null {
    if (this.windows.length === 0) return null;
    if (at < this.from || at >= this.to) this.refresh(at);
    let hold: Hold | null = null;
    for (const w of this.active) {
      const inScope = w.whole || (alert.client_id !== null && w.clients.has(alert.client_id)) || (alert.integration_id !== null && w.integrations.has(alert.integration_id));
      if (inScope && (!hold || w.end > hold.until)) hold = { windowId: w.id, until: w.end };
    }
    return hold;
  }
}
