import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchPublicPlans } from './pricing-api.ts';
import { queryKeys } from './query-keys.ts';

// The registration wizard's plan choice (the marketing home page, a page of its own, loads them without TanStack).
export const publicPlansQuery = queryOptions({ queryKey: queryKeys.publicPlans, queryFn: fetchPublicPlans, staleTime: 5 * 60_000 });

export const usePublicPlans = () => useQuery(publicPlansQuery);
