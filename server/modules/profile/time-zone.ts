import { IANAZone } from 'luxon';

// IANA names only ("Europe/Berlin", "UTC", "Etc/GMT+5"): newer runtimes also take offsets ("+01:00") as zones, which
// carry no daylight-saving rules and are not what a person chooses from the list.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

let spellings: Map<string, string> | null = null;

/**
 * The zone as it is stored: `name` when Luxon knows it as an IANA zone, else null. Only the letter case is corrected
 * (to the runtime's list), never the name itself: a runtime may call the person's "Asia/Kolkata" "Asia/Calcutta",
 * and the browser's list of choices, which the stored value must match, says "Asia/Kolkata".
 */
export function storedTimeZone(name: string): string | null {
  if (name.length > 64 || !IANA_NAME.test(name) || !IANAZone.isValidZone(name)) return null;
  spellings ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z]));
  return spellings.get(name.toLowerCase()) ?? name;
}
