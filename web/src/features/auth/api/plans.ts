import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingPlan } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';

export const publicPlansQuery = queryOptions({
  queryKey: ['pricingPlans', 'public'],
  queryFn: () => api<{ items: PricingPlan[] }>('/pricingPlans').then((r) => r.items.filter((p) => p.isPublic)),
  staleTime: 5 * 60_000,
});

export const usePublicPlans = () => useQuery(publicPlansQuery);
