import { DateTime, IANAZone } from 'luxon';

// When a person's weekly digest is due, and what week it covers: pure, in the person's own zone (Luxon), so daylight
// saving and zones east of UTC (whose Monday starts on Sunday in UTC) need no special case.

/** The local hour on Monday when the digest goes out. */
export const DIGEST_HOUR = 8;
/**
 * How long after 08:00 a digest not sent yet (the server was down, the mail server refused) is still sent; later that
 * week's digest is skipped rather than arriving on a Tuesday evening.
 */
export const DIGEST_LATE_HOURS = 12;

export interface DigestWeek {
  /** The local date of the Monday the digest is for (its key: one digest per person and week). */
  week: string;
  /** The week it reports on: the seven local days before that Monday, as stored UTC times. */
  from: string;
  to: string;
  /** The week before, for the comparison. */
  previousFrom: string;
}

const zoneOrUtc = (zone: string | null | undefined) => (zone && IANAZone.isValidZone(zone) ? zone : 'UTC');
const iso = (t: DateTime) => t.toUTC().toISO()!;

/** The last complete week before `now` in the zone (Monday 00:00 to Monday 00:00), and the Monday that ends it. */
export function lastWeek(now: Date, zone: string | null | undefined): DigestWeek {
  const local = DateTime.fromJSDate(now, { zone: zoneOrUtc(zone) });
  const monday = local.startOf('week'); // Luxon's weeks start on Monday (ISO).
  return { week: monday.toISODate()!, from: iso(monday.minus({ weeks: 1 })), to: iso(monday), previousFrom: iso(monday.minus({ weeks: 2 })) };
}

/** The week whose digest is due for a person in `zone` at `now`: Monday from 08:00 for DIGEST_LATE_HOURS; else null. */
export function dueWeek(now: Date, zone: string | null | undefined): DigestWeek | null {
  const local = DateTime.fromJSDate(now, { zone: zoneOrUtc(zone) });
  if (local.weekday !== 1 || local.hour < DIGEST_HOUR || local.hour >= DIGEST_HOUR + DIGEST_LATE_HOURS) return null;
  return lastWeek(now, zone);
}

/**
 * Whether it is Monday between 08:00 and 20:00 anywhere (zones run from UTC−12 to UTC+14): from Sunday 18:00 UTC to
 * Tuesday 08:00 UTC. Outside it the sweep reads nobody.
 */
export function digestHoursAnywhere(now: Date): boolean {
  const t = DateTime.fromJSDate(now, { zone: 'UTC' });
  const hoursIntoWeek = (t.weekday - 1) * 24 + t.hour; // Monday 00:00 UTC = 0
  const start = DIGEST_HOUR - 14; // Monday 08:00 at UTC+14, in UTC hours from Monday 00:00 (Sunday 18:00)
  const end = DIGEST_HOUR + DIGEST_LATE_HOURS + 12; // Monday 20:00 at UTC−12
  return (hoursIntoWeek >= start && hoursIntoWeek < end) || hoursIntoWeek - 7 * 24 >= start;
}

/** The week of a digest key (the local date of its Monday) in the person's zone. */
export function weekOf(week: string, zone: string | null | undefined): DigestWeek {
  const monday = DateTime.fromISO(week, { zone: zoneOrUtc(zone) }).startOf('day');
  return { week, from: iso(monday.minus({ weeks: 1 })), to: iso(monday), previousFrom: iso(monday.minus({ weeks: 2 })) };
}

export { zoneOrUtc };
