import { describe, expect, it } from 'vitest';
import { matchesTimeZone, timeZoneOptions, utcOffset } from './time-zones.ts';

describe('time-zone choices of the profile', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it('shows each zone with its UTC offset at the time asked, daylight saving included', () => {
    expect(utcOffset('Europe/Berlin', winter)).toBe('UTC+01:00');
    expect(utcOffset('Europe/Berlin', summer)).toBe('UTC+02:00');
    expect(utcOffset('America/New_York', winter)).toBe('UTC-05:00');
    expect(utcOffset('Asia/Kolkata', winter)).toBe('UTC+05:30');
    expect(utcOffset('UTC', winter)).toBe('UTC+00:00');
    expect(utcOffset('Not/AZone', winter)).toBe('');
  });

  it('lists every zone the runtime knows, UTC first, and keeps a stored zone this runtime lacks', () => {
    const options = timeZoneOptions('Europe/Berlin', winter);
    expect(options[0]).toEqual({ value: 'UTC', label: 'UTC (UTC+00:00)' });
    expect(options).toContainEqual({ value: 'Europe/Berlin', label: 'Europe/Berlin (UTC+01:00)' });
    expect(options.length).toBeGreaterThan(300);
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
    expect(timeZoneOptions('Asia/Kolkata', winter).some((o) => o.value === 'Asia/Kolkata')).toBe(true);
    expect(timeZoneOptions(null, winter).length).toBe(timeZoneOptions('Europe/Berlin', winter).length);
  });

  it('finds zones by place written with spaces, by region, or by offset', () => {
    expect(matchesTimeZone('America/New_York (UTC-05:00)', 'new york')).toBe(true);
    expect(matchesTimeZone('America/New_York (UTC-05:00)', 'New_York')).toBe(true);
    expect(matchesTimeZone('Asia/Kolkata (UTC+05:30)', '+05:30')).toBe(true);
    expect(matchesTimeZone('Europe/Berlin (UTC+01:00)', 'europe/')).toBe(true);
    expect(matchesTimeZone('Europe/Berlin (UTC+01:00)', 'paris')).toBe(false);
  });
});
