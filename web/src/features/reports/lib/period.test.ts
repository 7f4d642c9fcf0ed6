import { describe, expect, it } from 'vitest';
import { formatDuration, formatShare, formatTarget, periodRange } from './period.ts';

describe('report period and formats', () => {
  it('ends the rolling periods at the next minute', () => {
    const now = Date.parse('2025-03-10T12:00:30.000Z');
    expect(periodRange('7', { from: null, to: null }, now)).toEqual({ from: '2025-03-03T12:01:00.000Z', to: '2025-03-10T12:01:00.000Z' });
    expect(periodRange('90', { from: null, to: null }, now)?.from).toBe('2024-12-10T12:01:00.000Z');
  });

  it('takes custom dates whole, and refuses missing or reversed ones', () => {
    const r = periodRange('custom', { from: '2025-03-01', to: '2025-03-01' });
    expect(r).not.toBeNull();
    expect(Date.parse(r!.to) - Date.parse(r!.from)).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(periodRange('custom', { from: '2025-03-02', to: '2025-03-01' })).toBeNull();
    expect(periodRange('custom', { from: null, to: '2025-03-01' })).toBeNull();
    expect(periodRange('custom', { from: '2025-02-30', to: '2025-03-01' })).toBeNull();
  });

  it('formats durations, shares and targets', () => {
    expect([null, 0, 44.6, 60, 719, 3600, 3900, 86_400, 97_200].map(formatDuration)).toEqual(['–', '0 s', '45 s', '1 min', '12 min', '1 h', '1 h 5 min', '1 d', '1 d 3 h']);
    expect([null, 0, 2 / 3, 1].map(formatShare)).toEqual(['–', '0 %', '67 %', '100 %']);
    expect([null, { min: 15, max: 15 }, { min: 10, max: 15 }].map(formatTarget)).toEqual(['None', '15 min', '10–15 min']);
  });
});
