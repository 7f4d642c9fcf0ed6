import { describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { ApiError, retryLoad } from '../../../lib/api.ts';
import { askEarly, takeEarly } from './early-answers.ts';

/**
 * Issue 33: the list asked as the app starts and the page's own query are one request, and a list that cannot load is
 * asked twice in all (one try, one retry), however the early request and the page's mount fall in time.
 */
function harness(answers: Array<'ok' | 'fail'>) {
  // The app's retry rule (one more try for a server error), without its half-second wait.
  const qc = new QueryClient({ defaultOptions: { queries: { retry: retryLoad, retryDelay: 1, staleTime: 15_000 } } });
  const key: QueryKey = ['tenant', `t-${Math.random()}`, 'alerts', 'active', {}];
  let asked = 0;
  const release: Array<() => void> = [];
  const request = () => {
    const n = asked++;
    const outcome = answers[Math.min(n, answers.length - 1)];
    return new Promise<{ n: number }>((resolve, reject) =>
      release.push(() => (outcome === 'ok' ? resolve({ n }) : reject(new ApiError(503, 'unavailable', 'Service unavailable')))),
    );
  };
  /** The page's query: its first try takes the early request, as list-active-alerts.ts does. */
  const page = () => new QueryObserver<{ n: number }>(qc, { queryKey: key, queryFn: () => takeEarly<{ n: number }>(key) ?? request() });
  const answerAll = async () => {
    while (release.length) release.shift()!();
    await new Promise((r) => setTimeout(r, 20));
  };
  return { qc, key, request, page, answerAll, asked: () => asked };
}

const settled = (observer: QueryObserver<{ n: number }>) =>
  new Promise<void>((resolve) => {
    const check = () => {
      const r = observer.getCurrentResult();
      if (r.fetchStatus === 'idle' && r.status !== 'pending') resolve();
    };
    observer.subscribe(check);
    check();
  });

describe('an answer asked before its page renders (issue 33)', () => {
  it('is in the cache when it arrives before the page: the page asks for nothing', async () => {
    const h = harness(['ok']);
    askEarly(h.qc, h.key, h.request);
    await h.answerAll();
    expect(h.qc.getQueryData(h.key)).toEqual({ n: 0 });
    const observer = h.page();
    const unsubscribe = observer.subscribe(() => {});
    expect(observer.getCurrentResult().data).toEqual({ n: 0 });
    await h.answerAll();
    expect(h.asked()).toBe(1);
    unsubscribe();
  });

  it('is the page’s first try when the page asks while it is under way: one request', async () => {
    const h = harness(['ok']);
    askEarly(h.qc, h.key, h.request);
    const observer = h.page();
    const done = settled(observer);
    await h.answerAll();
    await done;
    expect(observer.getCurrentResult().data).toEqual({ n: 0 });
    expect(h.asked()).toBe(1);
  });

  for (const when of ['before', 'after'] as const)
    it(`failing, makes one try and one retry in all when the page mounts ${when} it failed`, async () => {
      const h = harness(['fail']);
      askEarly(h.qc, h.key, h.request);
      if (when === 'before') await h.answerAll();
      const observer = h.page();
      const done = settled(observer);
      // The early try fails (now or already), the page's retry fails too; nothing more is asked.
      for (let i = 0; i < 4; i++) await h.answerAll();
      await done;
      expect(observer.getCurrentResult().status).toBe('error');
      expect(h.asked()).toBe(2);
    });

  it('is taken once: a later load of the page asks afresh', async () => {
    const h = harness(['ok']);
    askEarly(h.qc, h.key, h.request);
    expect(takeEarly(h.key)).toBeDefined();
    expect(takeEarly(h.key)).toBeUndefined();
  });

  it('is not asked again while the page already has the answer or is asking for it', async () => {
    const h = harness(['ok']);
    h.qc.setQueryData(h.key, { n: 9 });
    askEarly(h.qc, h.key, h.request);
    expect(h.asked()).toBe(0);
  });
});
