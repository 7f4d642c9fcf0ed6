import { MSG } from '../../../contract/messages.ts';

/** A stored UTC time in the viewer's zone; 'N/A' when missing, 'Invalid Date' when unreadable. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return MSG.notAvailable;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return MSG.invalidDate;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return MSG.notAvailable;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return MSG.invalidDate;
  return d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** The time of day of a stored UTC time, in the viewer's zone ('' when missing or unreadable: shown beside its date). */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleTimeString(undefined, { timeStyle: 'short' });
}
