import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePricingPlanBody, PricingPlan } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';
import { invalidatePricingViews } from './invalidate.ts';

export const createPricingPlan = (body: CreatePricingPlanBody) => api<PricingPlan>('/pricingPlans', { method: 'POST', body });

export function useCreatePricingPlan() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createPricingPlan, onSuccess: () => invalidatePricingViews(qc) });
}
