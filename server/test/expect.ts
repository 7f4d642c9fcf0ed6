import { expect } from 'vitest';

/** ISO-8601 UTC with milliseconds: how the server writes every time. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A time the server wrote during the test: an ISO_TIME no earlier than `since` (ms) and not in the future. */
export function expectTimeSince(value: unknown, since: number) {
  expect(value).toMatch(ISO_TIME);
  const at = Date.parse(value as string);
  expect(at).toBeGreaterThanOrEqual(since);
  expect(at).toBeLessThanOrEqual(Date.now());
}
