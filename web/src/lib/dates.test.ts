import { describe, expect, it } from 'vitest';
import { MSG } from '../../../contract/messages.ts';
import { formatAge, formatDate, formatDateTime, formatTime } from './dates.ts';

describe('formatAge', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  it('says how long ago, in the largest two units a triage list needs', () => {
    expect(formatAge(ago(20_000), now)).toBe('just now');
    expect(formatAge(ago(12 * 60_000), now)).toBe('12 min');
    expect(formatAge(ago(60 * 60_000), now)).toBe('1 h');
    expect(formatAge(ago(185 * 60_000), now)).toBe('3 h 5 min');
    expect(formatAge(ago(52 * 3_600_000), now)).toBe('2 d 4 h');
    expect(formatAge(ago(72 * 3_600_000), now)).toBe('3 d');
  });
  it('never shows a negative age (a clock slightly behind the server) nor fails on missing or unreadable times', () => {
    expect(formatAge(new Date(now + 90_000).toISOString(), now)).toBe('just now');
    expect(formatAge(null, now)).toBe('');
    expect(formatAge('not a date', now)).toBe('');
  });
});

describe('formatDateTime, formatDate, formatTime', () => {
  const at = '2026-11-24T12:34:00Z';
  it('write what toLocaleString writes for the viewer, however many times they are asked', () => {
    const d = new Date(at);
    for (let i = 0; i < 3; i++) {
      expect(formatDateTime(at)).toBe(d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
      expect(formatDate(at)).toBe(d.toLocaleDateString(undefined, { dateStyle: 'medium' }));
      expect(formatTime(at)).toBe(d.toLocaleTimeString(undefined, { timeStyle: 'short' }));
    }
    expect(formatDateTime(at)).not.toBe(formatDateTime('2026-11-24T13:34:00Z'));
  });
  it('say N/A for a missing time and Invalid Date for an unreadable one (the spec’s texts)', () => {
    expect(formatDateTime(null)).toBe(MSG.notAvailable);
    expect(formatDate('nope')).toBe(MSG.invalidDate);
    expect(formatTime(undefined)).toBe('');
  });
});
