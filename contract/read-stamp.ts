import type { ReadStamp, StreamPosition } from './alerts.ts';

/**
 * Two server instances (PostgreSQL) compare their clocks, not their counts: a change heard up to this long before the
 * answer's stamp still counts as maybe missed, for clocks that drift apart.
 */
export const CLOCK_MARGIN_MS = 2_000;

/**
 * Issue 33: the dashboard asks for its list and figures while its live stream subscribes. Whether an answer read at
 * `stamp` may lack a change that the stream, subscribed at `position`, will not send either (it was heard before the
 * stream subscribed, after the answer's read began): then the answer is asked for again, once. The same instance
 * compares its counts of changes heard, exactly; two instances compare clocks with a margin; anything unknown (no
 * stamp, no position, a stamp older than all the instance has heard) says yes.
 */
export function mayHaveMissed(stamp: ReadStamp | undefined, position: StreamPosition | null): boolean {
  if (!stamp || !position) return true;
  if (stamp.instance === position.instance) return stamp.seq < position.sinceSeq || position.seq > stamp.seq;
  const from = stamp.at - CLOCK_MARGIN_MS;
  return from < position.since || position.at >= from;
}

/**
 * Whether an answer read at `stamp` (the stat cards) already counts a change the stream says was heard at `heard`, so
 * that adding it again would count it twice: 'yes' when the instance that read the answer had heard it before the read
 * began; 'no' when it was heard well after the read (beyond the clocks' margin, which also covers a change committed
 * before the read but heard late: another instance's notice); 'maybe' otherwise (the figures are then asked for again).
 * Without a stamp or a heard time (an older server) the change is applied, as before.
 */
export function answerCounts(stamp: ReadStamp | undefined, heard: ReadStamp | undefined): 'yes' | 'no' | 'maybe' {
  if (!stamp || !heard) return 'no';
  if (stamp.instance === heard.instance && heard.seq <= stamp.seq) return 'yes';
  if (heard.at > stamp.at + CLOCK_MARGIN_MS) return 'no';
  return stamp.instance !== heard.instance && heard.at < stamp.at - CLOCK_MARGIN_MS ? 'yes' : 'maybe';
}

/** The data of a `ready` event as a position, or null when it is not one (an older server sends `{}`). */
export function asPosition(data: unknown): StreamPosition | null {
  const p = data as Partial<StreamPosition> | null;
  return p && typeof p.instance === 'string' && [p.since, p.sinceSeq, p.seq, p.at].every((n) => typeof n === 'number') ? (p as StreamPosition) : null;
}
