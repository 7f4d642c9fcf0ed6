import { MSG } from '../../../contract/messages.ts';

const STYLES = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters: Partial<Record<keyof typeof STYLES, Intl.DateTimeFormat>> = {};

/**
 * The viewer's formatter of a style, made once: `toLocaleString` with options builds a new one on every call (a tenth
 * of a millisecond or more each, for every card of a list at every render). Same text as `toLocaleString`.
 */
const formatter = (style: keyof typeof STYLES) => (formatters[style] ??= new Intl.DateTimeFormat(undefined, STYLES[style]));

/** A stored UTC time in the viewer's zone; 'N/A' when missing, 'Invalid Date' when unreadable. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return MSG.notAvailable;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return MSG.invalidDate;
  return formatter('dateTime').format(d);
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return MSG.notAvailable;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return MSG.invalidDate;
  return formatter('date').format(d);
}

/** The time of day of a stored UTC time, in the viewer's zone ('' when missing or unreadable: shown beside its date). */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return formatter('time').format(d);
}

/**
 * How long ago a stored UTC time was, as a triage list shows it: "just now", "12 min", "3 h 5 min", "2 d 4 h".
 * '' when missing or unreadable (the exact time is shown on hover).
 */
export function formatAge(value: string | null | undefined, now: number = Date.now()): string {
  if (!value) return '';
  const t = new Date(value).getTime();
  if (Number.isNaN(t)) return '';
  const minutes = Math.max(0, Math.floor((now - t) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
