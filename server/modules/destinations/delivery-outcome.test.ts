import { describe, expect, it } from 'vitest';
import { nextAfter, retryAfterMs, type AttemptResult } from './delivery-outcome.ts';

const now = new Date('2026-01-01T00:00:00Z');
const after = (ms: number) => ({ kind: 'retry', at: new Date(now.getTime() + ms) });
const answer = (status: number, retryAfter: string | null = null): AttemptResult => ({ status, retryAfter });
const noAnswer: AttemptResult = { status: null, error: 'timeout' };

describe('what follows a delivery attempt', () => {
  it.each([
    ['2xx is done', answer(200), 1, { kind: 'succeeded' }],
    ['204 is done', answer(204), 3, { kind: 'succeeded' }],
    ['410 disables', answer(410), 1, { kind: 'disable' }],
    ['a 3xx (no redirect followed) fails', answer(302), 1, { kind: 'failed' }],
    ['a 4xx the receiver means fails', answer(400), 1, { kind: 'failed' }],
    ['5xx after the first attempt waits 5 s', answer(500), 1, after(5_000)],
    ['5xx after the second waits 5 min', answer(503), 2, after(300_000)],
    ['no answer after the third waits 30 min', noAnswer, 3, after(1_800_000)],
    ['then 2 h', noAnswer, 4, after(7_200_000)],
    ['then 5 h', noAnswer, 5, after(18_000_000)],
    ['then 10 h', noAnswer, 6, after(36_000_000)],
    ['then 24 h', noAnswer, 7, after(86_400_000)],
    ['and after the 8th attempt it fails', answer(500), 8, { kind: 'failed' }],
    ['429 without Retry-After keeps the schedule', answer(429), 1, after(5_000)],
    ['429 with a later Retry-After waits that long', answer(429, '120'), 1, after(120_000)],
    ['429 with an earlier Retry-After keeps the schedule', answer(429, '1'), 2, after(300_000)],
    ['429 with an HTTP date', answer(429, 'Thu, 01 Jan 2026 01:00:00 GMT'), 1, after(3_600_000)],
    ['a Retry-After beyond a day is held to a day', answer(429, '999999'), 1, after(86_400_000)],
  ])('%s', (_name, result, attempt, expected) => {
    expect(nextAfter(result, attempt, now)).toEqual(expected);
  });

  it('does not retry what the address guard refused', () => {
    expect(nextAfter(noAnswer, 1, now, { guardRefused: true })).toEqual({ kind: 'failed' });
  });

  it('reads Retry-After as seconds or a date, else nothing', () => {
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
  });
});
