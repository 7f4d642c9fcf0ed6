import { describe, expect, it } from 'vitest';
import type { Piece } from './oncall.ts';
import { coverPlan, onCallSomewhere, roleThroughout } from './shift-cover.service.ts';

/** A piece from hour a to hour b (epoch hours), primary p, secondary s. */
const piece = (a: number, b: number, p: string | null, s: string | null = null): Piece => ({
  start: a,
  end: b,
  primary: p,
  secondary: s,
  primaryOverride: false,
  secondaryOverride: false,
  inPeriod: true,
});

describe('who covers a stretch (pure)', () => {
  it.each([
    ['all of it as primary', [piece(0, 10, 'r')], 'r', 2, 8, 'primary'],
    ['across two pieces with someone else as secondary', [piece(0, 5, 'r', 'x'), piece(5, 10, 'r', 'y')], 'r', 2, 8, 'primary'],
    ['as secondary', [piece(0, 10, 'x', 'r')], 'r', 0, 10, 'secondary'],
    ['not at the end', [piece(0, 5, 'r'), piece(5, 10, 'x')], 'r', 2, 8, null],
    ['not at the start', [piece(0, 5, 'x'), piece(5, 10, 'r')], 'r', 2, 8, null],
    ['a gap in between', [piece(0, 4, 'r'), piece(4, 5, null), piece(5, 10, 'r')], 'r', 2, 8, null],
    ['pieces missing at the end', [piece(0, 5, 'r')], 'r', 2, 8, null],
  ] as const)('roleThroughout: %s', (_name, list, user, from, to, expected) => {
    expect(roleThroughout([...list], user, from, to)).toBe(expected);
  });

  it('finds a person on call anywhere, primary or secondary', () => {
    expect(onCallSomewhere([piece(0, 5, 'a'), piece(5, 9, 'b', 'c')], 'c')).toBe(true);
    expect(onCallSomewhere([piece(0, 5, 'a'), piece(5, 9, 'b', 'c')], 'd')).toBe(false);
  });

  it('names the rotation’s person as replaced where someone covers through an earlier override, and joins stretches', () => {
    // The rotation: R 0–6, U 6–12. Overrides made before: N covers for R 3–6.
    const base = [piece(0, 6, 'r'), piece(6, 12, 'u')];
    const now = [piece(0, 3, 'r'), piece(3, 6, 'n'), piece(6, 12, 'u')];
    expect(coverPlan({ pieces: now, base }, 'primary', (p) => p.primary !== 'me')).toEqual([
      { replaced: 'r', current: 'r', start: 0, end: 3 },
      { replaced: 'r', current: 'n', start: 3, end: 6 },
      { replaced: 'u', current: 'u', start: 6, end: 12 },
    ]);
    // Only where N is on call: the override replaces R (the rotation's person) for those hours.
    expect(coverPlan({ pieces: now, base }, 'primary', (p) => p.primary === 'n')).toEqual([{ replaced: 'r', current: 'n', start: 3, end: 6 }]);
    // Nobody's stretches and the caller's own are left out.
    expect(coverPlan({ pieces: [piece(0, 2, null), piece(2, 4, 'me'), piece(4, 6, 'x')], base: [piece(0, 2, null), piece(2, 6, 'x')] }, 'primary', (p) => p.primary !== 'me')).toEqual([
      { replaced: 'x', current: 'x', start: 4, end: 6 },
    ]);
  });

  it('covers the secondary role by the secondary’s rotation person', () => {
    const base = [piece(0, 8, 'p', 's')];
    const now = [piece(0, 4, 'p', 's'), piece(4, 8, 'p', 'o')];
    expect(coverPlan({ pieces: now, base }, 'secondary', (p) => p.secondary === 'o')).toEqual([{ replaced: 's', current: 'o', start: 4, end: 8 }]);
  });
});
