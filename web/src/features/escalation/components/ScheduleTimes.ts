import { MSG } from '../../../../../contract/messages.ts';

/** A YYYY-MM-DD calendar date as "Jan 1, 2026" (the date itself, whatever the viewer's zone). */
export function formatCalendarDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return MSG.invalidDate;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).toLocaleDateString('en-US', { timeZone: 'UTC', dateStyle: 'medium' });
}

/** A time in the viewer's zone, short: "Mon, Jul 6, 4:00 PM". */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return MSG.notAvailable;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return MSG.invalidDate;
  return d.toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** A time of day in the given zone: "4 PM" or "4:30 PM". */
export function formatClock(iso: string, timeZone: string): string {
  const d = new Date(iso);
  const minute = Number(new Intl.DateTimeFormat('en-US', { timeZone, minute: 'numeric' }).format(d));
  return d.toLocaleTimeString('en-US', { timeZone, hour: 'numeric', ...(minute ? { minute: '2-digit' } : {}) });
}

/** Today in the viewer's zone, and the same day a month later (spec section 9's default period). */
export function defaultPeriod(): { startTime: string; endTime: string } {
  const now = new Date();
  const ymd = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const later = new Date(now.getFullYear(), now.getMonth() + 1, now.getDate());
  return { startTime: ymd(now), endTime: ymd(later) };
}

/** The viewer's IANA zone, or UTC when the browser does not say. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let zones: string[] | null = null;
/** Every IANA zone the browser knows, for the time-zone picker. */
export function timeZoneChoices(current: string): string[] {
  if (!zones) {
    const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
    zones = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : ['UTC'];
    if (!zones.includes('UTC')) zones = ['UTC', ...zones];
  }
  return zones.includes(current) ? zones : [current, ...zones];
}

/** The wall-clock parts of an instant in a zone. */
function partsIn(ms: number, timeZone: string) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(ms))
      .filter((x) => x.type !== 'literal')
      .map((x) => [x.type, Number(x.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return p;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const p = partsIn(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of a wall-clock date and time ("2026-03-02", "09:00") in a zone, as ISO; a time the clocks skip moves
 * later, as the server's Luxon does. Null for an unreadable date or time.
 */
export function zonedToIso(date: string, time: string, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(+d[1], +d[2] - 1, +d[3], +t[1], +t[2]);
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  return Number.isNaN(guess) ? null : new Date(guess).toISOString();
}

/** An instant's date ("2026-03-02") and time ("09:00") on the zone's wall clock. */
export function isoToZoned(iso: string, timeZone: string): { date: string; time: string } {
  const p = partsIn(Date.parse(iso), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return { date: `${p.year}-${two(p.month)}-${two(p.day)}`, time: `${two(p.hour)}:${two(p.minute)}` };
}

/** "Mon 2 Mar, 09:00" on the zone's wall clock. */
export function formatInZone(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/**
 * The viewer's own wall-clock time of an instant ("Mon 2 Mar, 03:00"), shown beside a schedule's time; null when it
 * reads the same in both zones (or the instant is unreadable).
 */
export function viewerTimeIfDifferent(iso: string | null, timeZone: string): string | null {
  if (!iso || Number.isNaN(Date.parse(iso))) return null;
  const mine = formatInZone(iso, browserTimeZone());
  return mine === formatInZone(iso, timeZone) ? null : mine;
}

/** The next `n` handoffs of a rotation from now: days and weeks keep the wall-clock time of the first, hours are real. */
export function previewHandoffs(startIso: string, unit: 'hours' | 'days' | 'weeks', count: number, timeZone: string, n: number, now = Date.now()): Array<{ at: string; turn: number }> {
  const start = Date.parse(startIso);
  if (Number.isNaN(start) || count < 1) return [];
  const first = isoToZoned(startIso, timeZone);
  const at = (k: number): number => {
    if (unit === 'hours') return start + k * count * 3600_000;
    const [y, m, d] = first.date.split('-').map(Number);
    const day = new Date(Date.UTC(y, m - 1, d + k * count * (unit === 'weeks' ? 7 : 1)));
    return Date.parse(zonedToIso(day.toISOString().slice(0, 10), first.time, timeZone)!);
  };
  const nominal = count * (unit === 'hours' ? 3600_000 : unit === 'days' ? 86_400_000 : 7 * 86_400_000);
  let k = Math.max(0, Math.floor((now - start) / nominal) - 1);
  while (at(k) <= now) k++;
  return Array.from({ length: n }, (_, i) => ({ at: new Date(at(k + i)).toISOString(), turn: k + i }));
}
