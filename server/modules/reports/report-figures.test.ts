import { describe, expect, it } from 'vitest';
import { byClient, byPriority, combine, hourOfWeek, nearestRankOffset, targetPairs, type GroupRow } from './report-figures.ts';

const row = (over: Partial<GroupRow>): GroupRow => ({
  clientId: null,
  priority: 'critical',
  opened: 0,
  acknowledged: 0,
  ttaSum: 0,
  resolved: 0,
  ttrSum: 0,
  eligible: 0,
  within: 0,
  targetMin: null,
  targetMax: null,
  ...over,
});

describe('report figures (pure)', () => {
  it('finds the nearest-rank percentile position', () => {
    for (const [n, p, expected] of [
      [0, 0.9, null],
      [1, 0.9, 0],
      [5, 0.9, 4],
      [10, 0.9, 8],
      [11, 0.9, 9],
      [100, 0.9, 89],
      [101, 0.9, 90],
      [4, 0.5, 1],
    ] as const) {
      expect(nearestRankOffset(n, p), `${n} ${p}`).toBe(expected);
    }
  });

  it('turns policies into targets, leaving out priorities without one', () => {
    expect(targetPairs([{ id: 'p', escalationTimes: { critical: 15, high: 0, medium: 60, low: 240, info: null } }])).toEqual([
      { policyId: 'p', priority: 'critical', seconds: 900 },
      { policyId: 'p', priority: 'medium', seconds: 3600 },
      { policyId: 'p', priority: 'low', seconds: 14_400 },
    ]);
  });

  it('combines groups: means over what has a time, never-acknowledged apart, share over the decided targets', () => {
    const f = combine([
      row({ opened: 3, acknowledged: 2, ttaSum: 301, resolved: 1, ttrSum: 100, eligible: 3, within: 1 }),
      row({ opened: 2, acknowledged: 0, resolved: 0, eligible: 0 }),
    ]);
    expect(f).toEqual({
      opened: 5,
      acknowledged: 2,
      neverAcknowledged: 3,
      resolved: 1,
      mttaSeconds: 151,
      mttrSeconds: 100,
      targetEligible: 3,
      withinTarget: 1,
      ackWithinTargetShare: 1 / 3,
    });
    expect(combine([])).toMatchObject({ opened: 0, mttaSeconds: null, mttrSeconds: null, ackWithinTargetShare: null });
  });

  it('gives every priority, with the range of targets that applied', () => {
    const rows = [row({ priority: 'high', opened: 1, targetMin: 600, targetMax: 1800 }), row({ priority: 'high', opened: 1, targetMin: 300, targetMax: 300 })];
    const out = byPriority(rows);
    expect(out.map((p) => p.priority)).toEqual(['critical', 'high', 'medium', 'low', 'info']);
    expect(out[1]).toMatchObject({ opened: 2, targetMinutes: { min: 5, max: 30 } });
    expect(out[0]).toMatchObject({ opened: 0, targetMinutes: null });
  });

  it('orders clients by alerts, then name', () => {
    const names = new Map([
      ['a', 'Zeta'],
      ['b', 'Alpha'],
    ]);
    const out = byClient(
      [row({ clientId: 'a', opened: 2 }), row({ clientId: 'b', opened: 2 }), row({ clientId: null, opened: 5 }), row({ clientId: 'a', priority: 'low', opened: 1 })],
      names,
    );
    expect(out.map((c) => [c.clientId, c.clientName, c.opened])).toEqual([
      [null, null, 5],
      ['a', 'Zeta', 3],
      ['b', 'Alpha', 2],
    ]);
    // No client after the clients with as many alerts.
    expect(byClient([row({ clientId: null, opened: 1 }), row({ clientId: 'b', opened: 1 })], names).map((c) => c.clientId)).toEqual(['b', null]);
  });

  it('places UTC quarter hours in the local hour of the week, half-hour zones and DST included', () => {
    const cell = (cells: ReturnType<typeof hourOfWeek>, day: number, hour: number) => cells.find((c) => c.day === day && c.hour === hour)!.opened;
    // 2025-03-03 is a Monday.
    const kolkata = hourOfWeek(
      [
        { hour: '2025-03-03T10', quarter: 0, opened: 2 }, // Mon 15:30
        { hour: '2025-03-03T18', quarter: 1, opened: 1 }, // Mon 23:45 → still Monday 23
        { hour: '2025-03-03T18', quarter: 2, opened: 4 }, // Tue 00:00
      ],
      'Asia/Kolkata',
    );
    expect(kolkata).toHaveLength(168);
    expect(cell(kolkata, 1, 15)).toBe(2);
    expect(cell(kolkata, 1, 23)).toBe(1);
    expect(cell(kolkata, 2, 0)).toBe(4);
    expect(kolkata.reduce((s, c) => s + c.opened, 0)).toBe(7);
    // Berlin: 01:30 UTC is 02:30 local in winter (CET), 03:30 once summer time began on 2025-03-30.
    const berlin = hourOfWeek(
      [
        { hour: '2025-03-24T01', quarter: 2, opened: 1 },
        { hour: '2025-03-31T01', quarter: 2, opened: 1 },
      ],
      'Europe/Berlin',
    );
    expect(cell(berlin, 1, 2)).toBe(1);
    expect(cell(berlin, 1, 3)).toBe(1);
    expect(cell(hourOfWeek([{ hour: '2025-03-09T23', quarter: 3, opened: 1 }], 'UTC'), 7, 23)).toBe(1);
  });
});
