import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/**
 * Whether a failed load is worth one more try: a network failure or a server error may pass (a restart, a moment
 * without the database); a refusal (404 missing, 403, 400) will not, so it shows at once.
 */
export function retryLoad(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (error instanceof ApiError) return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
  return true;
}

/**
 * The one query cache of the page: the router's loaders prefetch into it, the pages read from it. A failed load is
 * tried once more after half a second, so a page says it could not load (with Retry) within about a second instead
 * of retrying for eight.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 15_000, retry: retryLoad, retryDelay: 500 } },
});
