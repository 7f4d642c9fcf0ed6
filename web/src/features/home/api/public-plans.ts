import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingPlan } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';

/** The public plans in sort order (a signed-in super admin also receives the private ones: they are left out). */
export const fetchPublicPlans = () => api<{ items: PricingPlan[] }>('/pricingPlans').then((r) => r.items.filter((p) => p.isPublic));

// Same key and data as the registration wizard's list, so going from the home page to sign-up reuses it.
export const publicPlansQuery = queryOptions({ queryKey: ['pricingPlans', 'public'], queryFn: fetchPublicPlans, staleTime: 5 * 60_000, retry: 1 });

export const usePublicPlans = () => useQuery(publicPlansQuery);
