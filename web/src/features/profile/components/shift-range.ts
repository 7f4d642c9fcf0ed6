import { MSG } from '../../../../../contract/messages.ts';

/** "Wed, Nov 25, 7:00 AM – 4:00 PM" in the viewer's zone; the end's date only when it is another day. */
export function formatRange(startIso: string, endIso: string) {
  const [a, b] = [new Date(startIso), new Date(endIso)];
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime())) return MSG.invalidDate;
  const day: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' };
  const time: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
  const sameDay = a.toDateString() === b.toDateString();
  return `${a.toLocaleString('en-US', { ...day, ...time })} – ${b.toLocaleString('en-US', sameDay ? time : { ...day, ...time })}`;
}
