import { DESTINATION_LIMITS } from '../../../contract/destinations.ts';

/** What one attempt to post came to: an HTTP answer, or no answer (timeout, refused, SSRF guard). */
export type AttemptResult = { status: number; retryAfter: string | null } | { status: null; error: string };

export type Next = { kind: 'succeeded' } | { kind: 'retry'; at: Date } | { kind: 'failed' } | { kind: 'disable' };

/** Seconds or an HTTP date in Retry-After, as milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * After attempt number `attempt` (1 for the first): 2xx is done; 410 Gone disables the destination; a timeout, a
 * connection failure, 5xx or 429 is retried on the schedule (429's Retry-After honoured when later than the schedule);
 * any other answer (a 4xx the receiver means) fails without retry, as does the last retry. A refusal by the address
 * guard is not retried either: the address will not become public by waiting.
 */
export function nextAfter(result: AttemptResult, attempt: number, now: Date, opts: { guardRefused?: boolean } = {}): Next {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { kind: 'succeeded' };
  if (result.status === 410) return { kind: 'disable' };
  const transient = result.status === null ? !opts.guardRefused : result.status >= 500 || result.status === 429;
  const delays = DESTINATION_LIMITS.retryDelaysMs;
  if (!transient || attempt > delays.length) return { kind: 'failed' };
  let wait: number = delays[attempt - 1];
  if (result.status === 429) wait = Math.max(wait, Math.min(retryAfterMs(result.retryAfter, now) ?? 0, 86_400_000));
  return { kind: 'retry', at: new Date(now.getTime() + wait) };
}
