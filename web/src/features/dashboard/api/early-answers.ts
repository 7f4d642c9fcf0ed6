import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

/** How long an answer asked early waits for its page: older, the page asks for its own. */
const KEPT_MS = 30_000;

const asked = new Map<string, { answer: Promise<unknown>; at: number }>();

/**
 * Issue 33: a request started before the page that needs it has rendered (`askEarly`, as the app starts on the
 * dashboard's address). Its answer goes to the query cache under `key` as it arrives, so the page's first render already
 * shows it; if the page's query asks first, it takes the request under way as its own first try instead
 * (`takeEarly`): never a second request for it. A failed one is left for the page's query to take, as its first try:
 * the page then makes its one retry (query-client.ts), so a list that cannot load is asked twice in all, not three or
 * four times, however the early request and the page's mount fall in time.
 */
export function askEarly<T>(qc: QueryClient, key: QueryKey, fetch: () => Promise<T>) {
  if (qc.getQueryData(key) !== undefined || qc.getQueryState(key)?.fetchStatus === 'fetching') return;
  const hash = hashKey(key);
  const entry = { answer: fetch(), at: Date.now() };
  asked.set(hash, entry);
  entry.answer.then(
    (data) => {
      // Not taken yet: the page finds it in the cache (and asks for nothing while it is fresh).
      if (asked.get(hash) !== entry) return;
      asked.delete(hash);
      if (qc.getQueryData(key) === undefined) qc.setQueryData(key, data);
    },
    () => {
      /* kept for the page's query, which takes the failure as its first try */
    },
  );
}

/** The answer asked early for `key`, if any and not taken yet: the query's first try takes it (once). */
export function takeEarly<T>(key: QueryKey): Promise<T> | undefined {
  const hash = hashKey(key);
  const entry = asked.get(hash);
  if (!entry) return undefined;
  asked.delete(hash);
  return Date.now() - entry.at <= KEPT_MS ? (entry.answer as Promise<T>) : undefined;
}
