import { describe, expect, it } from 'vitest';
import type { ReadStamp, StreamPosition } from './alerts.ts';
import { answerCounts, asPosition, CLOCK_MARGIN_MS, mayHaveMissed } from './read-stamp.ts';

const T = 1_800_000_000_000;
const stamp = (over: Partial<ReadStamp> = {}): ReadStamp => ({ instance: 'A', seq: 10, at: T, ...over });
const position = (over: Partial<StreamPosition> = {}): StreamPosition => ({ instance: 'A', since: T - 60_000, sinceSeq: 0, seq: 0, at: 0, ...over });

describe('whether an answer read while the stream subscribed may lack a change', () => {
  const cases: Array<[string, ReadStamp | undefined, StreamPosition | null, boolean]> = [
    ['same instance, the tenant changed before the read', stamp(), position({ seq: 9, at: T - 5 }), false],
    ['same instance, the tenant changed exactly at the stamp', stamp(), position({ seq: 10, at: T }), false],
    ['same instance, a change heard after the stamp, before the subscription', stamp(), position({ seq: 11, at: T + 3 }), true],
    ['same instance, the tenant never changed', stamp(), position(), false],
    ['same instance, its bus reconnected after the stamp (changes may be lost)', stamp(), position({ sinceSeq: 11, since: T + 10 }), true],
    ['same instance, its bus reconnected before the stamp', stamp(), position({ sinceSeq: 4, since: T - 10 }), false],
    ['two instances, the tenant changed long before', stamp({ instance: 'B' }), position({ seq: 3, at: T - CLOCK_MARGIN_MS - 1 }), false],
    ['two instances, a change within the clocks’ margin', stamp({ instance: 'B' }), position({ seq: 3, at: T - CLOCK_MARGIN_MS + 1 }), true],
    ['two instances, a change after the stamp', stamp({ instance: 'B' }), position({ seq: 3, at: T + 50 }), true],
    ['two instances, the tenant never changed', stamp({ instance: 'B' }), position(), false],
    ['two instances, the stream’s instance started after the read (it may not have heard)', stamp({ instance: 'B' }), position({ since: T - 100 }), true],
    ['no stamp (an older server)', undefined, position(), true],
    ['no position (an older server’s `ready`)', stamp(), null, true],
  ];
  it.each(cases)('%s', (_name, s, p, expected) => expect(mayHaveMissed(s, p)).toBe(expected));
});

describe('whether the figures read at a stamp already count a change heard at a time', () => {
  const cases: Array<[string, ReadStamp | undefined, ReadStamp | undefined, 'yes' | 'no' | 'maybe']> = [
    ['same instance, heard before the read', stamp(), stamp({ seq: 9, at: T - 1 }), 'yes'],
    ['same instance, heard as the read began', stamp(), stamp({ seq: 10, at: T }), 'yes'],
    ['same instance, heard just after the read began (it may have been committed before)', stamp(), stamp({ seq: 11, at: T + 20 }), 'maybe'],
    ['same instance, heard well after the read', stamp(), stamp({ seq: 11, at: T + CLOCK_MARGIN_MS + 1 }), 'no'],
    ['two instances, heard long before the read', stamp({ instance: 'B' }), stamp({ seq: 3, at: T - CLOCK_MARGIN_MS - 1 }), 'yes'],
    ['two instances, heard within the clocks’ margin', stamp({ instance: 'B' }), stamp({ seq: 3, at: T - 100 }), 'maybe'],
    ['two instances, heard well after the read', stamp({ instance: 'B' }), stamp({ seq: 3, at: T + CLOCK_MARGIN_MS + 1 }), 'no'],
    ['no stamp (an older server)', undefined, stamp(), 'no'],
    ['no heard time (an older server)', stamp(), undefined, 'no'],
  ];
  it.each(cases)('%s', (_name, s, h, expected) => expect(answerCounts(s, h)).toBe(expected));
});

describe('a ready event’s data', () => {
  it('is a position only when it has every field', () => {
    expect(asPosition({ instance: 'A', since: 1, sinceSeq: 0, seq: 2, at: 3 })).toEqual({ instance: 'A', since: 1, sinceSeq: 0, seq: 2, at: 3 });
    expect(asPosition({})).toBeNull();
    expect(asPosition(null)).toBeNull();
    expect(asPosition({ instance: 'A', since: 1, sinceSeq: 0, seq: '2', at: 3 })).toBeNull();
  });
});
