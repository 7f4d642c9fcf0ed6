/** The report's period choices: the last 7, 30 or 90 days (ending now), or calendar dates in the viewer's zone. */
export const PERIOD_CHOICES = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'custom', label: 'Custom dates' },
] as const;
export type PeriodChoice = (typeof PERIOD_CHOICES)[number]['value'];

export const isPeriodChoice = (v: string | null): v is PeriodChoice => PERIOD_CHOICES.some((c) => c.value === v);

/** `YYYY-MM-DD` of a day in the viewer's zone. */
export function dayOf(d: Date) {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Local midnight of a `YYYY-MM-DD`, or null when it is no date. */
function localMidnight(day: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayOf(d) === day ? d : null;
}

/**
 * The period as the API's `from` (included) and `to` (excluded) instants. The rolling choices end at the next whole
 * minute (a report asked for twice within a minute is the same one, and cached); custom dates run from the first
 * day's local midnight to the midnight after the last day. Null when custom dates are missing or out of order.
 */
export function periodRange(choice: PeriodChoice, custom: { from: string | null; to: string | null }, now = Date.now()): { from: string; to: string } | null {
  if (choice !== 'custom') {
    const end = Math.ceil(now / 60_000) * 60_000;
    return { from: new Date(end - Number(choice) * 86_400_000).toISOString(), to: new Date(end).toISOString() };
  }
  const from = custom.from ? localMidnight(custom.from) : null;
  const last = custom.to ? localMidnight(custom.to) : null;
  if (!from || !last || last < from) return null;
  const to = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** A length of time as a report shows it: "45 s", "12 min", "1 h 5 min", "2 d 3 h"; "–" for none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A share as a whole percentage ("67 %"); "–" when there is nothing to share. */
export const formatShare = (share: number | null | undefined) => (share === null || share === undefined ? '–' : `${Math.round(share * 100)} %`);

/** A target range in minutes as text ("15 min", "10–15 min"); "None" without one. */
export const formatTarget = (t: { min: number; max: number } | null) => (!t ? 'None' : t.min === t.max ? `${t.min} min` : `${t.min}–${t.max} min`);

/** The period in words for headings and file names ("Mar 3, 2025 – Mar 9, 2025"): `to` is excluded, so its day is the one before. */
export function periodLabel(from: string, to: string) {
  const f = new Date(from);
  const last = new Date(Date.parse(to) - 1);
  const fmt = (d: Date) => d.toLocaleDateString(undefined, { dateStyle: 'medium' });
  return `${fmt(f)} – ${fmt(last)}`;
}
