import { queryOptions } from '@tanstack/react-query';
import type { MeResponse } from '../../../contract/auth.ts';
import { api, ApiError } from './api.ts';
import { queryKeys } from './query-keys.ts';

/**
 * The signed-in user (null when signed out). Its own small module: the app's entry asks for it at once (main.tsx),
 * in parallel with the page's scripts, rather than when the route's guard has loaded.
 */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: async () => {
    try {
      return await api<MeResponse>('/me');
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    }
  },
  staleTime: 60_000,
  retry: (count, e) => !(e instanceof ApiError && e.status < 500) && count < 2,
});
