/** One choice of the time-zone picker: the IANA name, shown with its UTC offset now ("Europe/Berlin (UTC+01:00)"). */
export interface TimeZoneOption {
  value: string;
  label: string;
}

/** The zone's UTC offset at `at`, as "UTC+01:00" ('' where the browser cannot say). */
export function utcOffset(timeZone: string, at: Date): string {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
    // "GMT+01:00", and for UTC itself "GMT" or "GMT+00:00" depending on the browser.
    const m = name ? /^GMT(?:([+-]\d{2}:\d{2}))?$/.exec(name) : null;
    return m ? `UTC${m[1] ?? '+00:00'}` : '';
  } catch {
    return '';
  }
}

/** The browser's zone, or null when it does not say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Every IANA zone the browser knows, UTC among them; `current` is kept as a choice even when this browser lacks it. */
export function timeZoneOptions(current: string | null, at = new Date()): TimeZoneOption[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = new Set(intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : []);
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones]
    .sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)))
    .map((value) => {
      const offset = utcOffset(value, at);
      return { value, label: offset ? `${value} (${offset})` : value };
    });
}

const searchable = (s: string) => s.toLowerCase().replace(/_/g, ' ');

/** Whether an option matches what the person typed: "new york" finds America/New_York, "+05:30" Asia/Kolkata. */
export const matchesTimeZone = (label: string, search: string) => searchable(label).includes(searchable(search.trim()));
