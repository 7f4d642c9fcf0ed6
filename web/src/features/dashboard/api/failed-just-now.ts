import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/** How recent a failure counts as this visit's (the route's prefetch has just tried, and retried). */
const JUST_NOW_MS = 5_000;

/**
 * Whether the query at `key` failed in the last few seconds: the dashboard route's prefetch (prefetch-dashboard.ts)
 * already made its try and its retry, so a page mounting after that shows the failure (with Retry) at once instead of
 * trying twice more (its `retryOnMount`). An older failure is tried again on mount, as any query's.
 */
export function useFailedJustNow(key: QueryKey): boolean {
  const state = useQueryClient().getQueryState(key);
  return state?.status === 'error' && Date.now() - state.errorUpdatedAt < JUST_NOW_MS;
}
