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
