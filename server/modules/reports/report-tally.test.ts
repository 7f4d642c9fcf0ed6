import { describe, expect, it } from 'vitest';
import { addFacts, decodeRollup, emptyRollup, encodeRollup, mergeInto, tallyOf, targetsOf, type AlertFacts } from './report-tally.ts';

const T0 = Date.parse('2025-03-03T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const fact = (over: Partial<AlertFacts>): AlertFacts => ({
  client_id: 'c1',
  priority: 'critical',
  escalation_policy_id: 'p1',
  created_at: at(0),
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  source: 's',
  title: 't',
  occurrences: 1,
  maintenance_window_id: null,
  ...over,
});
const targets = targetsOf([{ policyId: 'p1', priority: 'critical', seconds: 900 }]);
const limits = { sources: 2, issues: 2 };

describe('the additive sum of a report', () => {
  it('reads the 90th percentile at its nearest rank, rounded to the second as shown', () => {
    const cases: Array<[number[], number | null]> = [
      [[], null],
      [[1499], 1],
      [[1500], 2],
      [[1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000], 9],
      [[10_000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000], 1],
      [[10_000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000], 1],
      [[10_000, 10_000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000], 10],
      [[-400, 200], 0],
    ];
    for (const [ttaMs, p90] of cases) {
      const r = addFacts(emptyRollup(), ttaMs.map((ms) => fact({ acknowledged_at: at(ms) })), targets, T0);
      expect(tallyOf(r, targets, T0, limits).p90Tta, JSON.stringify(ttaMs)).toBe(p90);
    }
  });

  it('decides a target: acknowledged within it or not, unacknowledged once it has passed', () => {
    const cases: Array<[Partial<AlertFacts>, number, [number, number]]> = [
      [{ acknowledged_at: at(900_000) }, T0, [1, 1]],
      [{ acknowledged_at: at(900_001) }, T0, [1, 0]],
      [{}, T0 + 899_999, [0, 0]],
      [{}, T0 + 900_000, [1, 0]],
      [{ resolved_at: at(1000) }, T0 + 900_000, [1, 0]],
      [{ priority: 'high' }, T0 + 10 ** 9, [0, 0]],
      [{ escalation_policy_id: null }, T0 + 10 ** 9, [0, 0]],
    ];
    for (const [over, now, [eligible, within]] of cases) {
      // Added before the target passed (pending), read at `now`; and added at `now`.
      for (const addedAt of [T0, now]) {
        const [g] = tallyOf(addFacts(emptyRollup(), [fact(over)], targets, addedAt), targets, now, limits).groups;
        expect([g.eligible, g.within], `${JSON.stringify(over)} at ${now - T0}, added at ${addedAt - T0}`).toEqual([eligible, within]);
      }
    }
  });

  it('orders the tops by count, then by code unit, keeping only the first few', () => {
    const r = addFacts(
      emptyRollup(),
      [fact({ source: 'b', title: 'Zeta', occurrences: 3 }), fact({ source: 'a', title: 'zeta', occurrences: 3 }), fact({ source: 'B', title: 'Zeta' }), fact({ source: 'c', title: 'alpha', occurrences: 9 })],
      targets,
      T0,
    );
    const t = tallyOf(r, targets, T0, limits);
    expect(t.sources).toEqual([
      { source: 'c', occurrences: 9, alerts: 1 },
      { source: 'a', occurrences: 3, alerts: 1 },
    ]);
    expect(t.issues).toEqual([
      { title: 'Zeta', alerts: 2, occurrences: 4 },
      { title: 'alpha', alerts: 1, occurrences: 9 },
    ]);
  });

  it('adds and takes out sums exactly, through their stored text too', () => {
    const a = addFacts(emptyRollup(), [fact({ acknowledged_at: at(1234), acknowledged_by: 'u1', resolved_at: at(99_999), maintenance_window_id: 'w' }), fact({ client_id: null })], targets, T0);
    const b = addFacts(emptyRollup(), [fact({ source: 'x', title: 'y', created_at: at(3_600_000) })], targets, T0);
    const sum = mergeInto(mergeInto(emptyRollup(), decodeRollup(encodeRollup(a)), 1), b, 1);
    const both = addFacts(emptyRollup(), [fact({ acknowledged_at: at(1234), acknowledged_by: 'u1', resolved_at: at(99_999), maintenance_window_id: 'w' }), fact({ client_id: null }), fact({ source: 'x', title: 'y', created_at: at(3_600_000) })], targets, T0);
    expect(tallyOf(sum, targets, T0 + 10 ** 7, limits)).toEqual(tallyOf(both, targets, T0 + 10 ** 7, limits));
    mergeInto(sum, b, -1);
    mergeInto(sum, a, -1);
    expect(encodeRollup(sum)).toBe(encodeRollup(emptyRollup()));
  });
});
