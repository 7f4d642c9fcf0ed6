import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingPlan } from '../../../contract/pricing.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

/** The public plans in sort order (a signed-in super admin also receives the private ones: they are left out). */
export const fetchPublicPlans = () => api<{ items: PricingPlan[] }>('/pricingPlans').then((r) => r.items.filter((p) => p.isPublic));

// The home page and the registration wizard share it, so going from the home page to sign-up reuses the list.
export const publicPlansQuery = queryOptions({ queryKey: queryKeys.publicPlans, queryFn: fetchPublicPlans, staleTime: 5 * 60_000 });

export const usePublicPlans = () => useQuery(publicPlansQuery);
