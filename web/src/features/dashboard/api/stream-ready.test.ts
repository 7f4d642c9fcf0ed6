import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { ReadStamp, StreamPosition } from '../../../../../contract/alerts.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { checkedAgainstReady, onStreamReady } from './stream-ready.ts';

const T = 't1';
const position = (seq: number): StreamPosition => ({ instance: 'A', since: 0, sinceSeq: 0, seq, at: seq });
const stamp = (seq: number): ReadStamp => ({ instance: 'A', seq, at: seq });

/** A stats query whose answers are read at the stamps given, one per request; `gate` holds the first answer back. */
function harness(stamps: number[], gate?: Promise<void>) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  let asked = 0;
  const queryFn = checkedAgainstReady(T, async () => {
    const n = asked++;
    if (n === 0 && gate) await gate;
    return { n, readStamp: stamp(stamps[Math.min(n, stamps.length - 1)]) };
  });
  const key = queryKeys.alertStats(T);
  const fetch = () => qc.fetchQuery({ queryKey: key, queryFn });
  return { qc, key, fetch, asked: () => asked };
}

describe('answers asked in parallel with the live stream’s subscription (issue 33)', () => {
  it('keeps an answer that arrived before `ready` when nothing changed after its read', async () => {
    const h = harness([5]);
    await h.fetch();
    onStreamReady(h.qc, T, position(5));
    expect(h.qc.getQueryState(h.key)?.isInvalidated).toBe(false);
    expect(h.asked()).toBe(1);
  });

  it('asks again for an answer that arrived before `ready` when a change came after its read', async () => {
    const h = harness([5]);
    await h.fetch();
    onStreamReady(h.qc, T, position(6));
    expect(h.qc.getQueryState(h.key)?.isInvalidated).toBe(true);
  });

  it('checks an answer under way when `ready` arrives: asked once more when it may have missed a change', async () => {
    let open!: () => void;
    const h = harness([5, 7], new Promise<void>((r) => (open = r)));
    const answer = h.fetch();
    await Promise.resolve();
    onStreamReady(h.qc, T, position(6));
    open();
    expect((await answer).n).toBe(1);
    expect(h.asked()).toBe(2);
  });

  it('keeps an answer under way at `ready` that missed nothing', async () => {
    let open!: () => void;
    const h = harness([6], new Promise<void>((r) => (open = r)));
    const answer = h.fetch();
    await Promise.resolve();
    onStreamReady(h.qc, T, position(6));
    open();
    expect((await answer).n).toBe(0);
    expect(h.asked()).toBe(1);
  });

  it('does not check an answer asked after `ready` (the stream sends every later change)', async () => {
    const h = harness([1]);
    onStreamReady(h.qc, T, position(9));
    expect((await h.fetch()).n).toBe(0);
    expect(h.asked()).toBe(1);
  });

  it('asks again when the server said nothing of its position (an older server)', async () => {
    const h = harness([5]);
    await h.fetch();
    onStreamReady(h.qc, T, null);
    expect(h.qc.getQueryState(h.key)?.isInvalidated).toBe(true);
  });

  it('leaves a failed load to its Retry on the page’s first connection, and tries it again on a reconnection', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let tries = 0;
    const observer = new QueryObserver(qc, { queryKey: queryKeys.alertStats(T), queryFn: () => Promise.reject(new Error(`503 #${++tries}`)) });
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
    onStreamReady(qc, T, position(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(tries).toBe(1);
    onStreamReady(qc, T, position(1), true);
    await vi.waitFor(() => expect(tries).toBe(2));
    stop();
  });
});
