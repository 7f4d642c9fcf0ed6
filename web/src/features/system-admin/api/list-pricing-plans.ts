import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingPlan } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Every plan, the private ones included (the server answers them to super admins only). */
export const fetchAllPlans = () => api<{ items: PricingPlan[] }>('/pricingPlans').then((r) => r.items);

export const allPlansQuery = queryOptions({ queryKey: queryKeys.allPlans, queryFn: fetchAllPlans });

export const useAllPlans = () => useQuery(allPlansQuery);
