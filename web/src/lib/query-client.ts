import { QueryClient } from '@tanstack/react-query';
import { RETRY_DELAY_MS, retryLoad } from './api.ts';

/**
 * The one query cache of the page: what the app asks for as it starts goes into it, the pages read from it. A failed
 * load is tried once more after half a second, so a page says it could not load (with Retry) within about a second
 * instead of retrying for eight (retryLoad, api.ts).
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 15_000, retry: retryLoad, retryDelay: RETRY_DELAY_MS } },
});
