import { QueryClient } from '@tanstack/react-query';

/** The one query cache of the page: the router's loaders prefetch into it, the pages read from it. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 15_000 } },
});
