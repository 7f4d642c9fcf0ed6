import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PricingPlan, UpdatePricingPlanBody } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';
import { invalidatePricingViews } from './invalidate.ts';

export const updatePricingPlan = ({ id, body }: { id: string; body: UpdatePricingPlanBody }) =>
  api<PricingPlan>(`/pricingPlans/${encodeURIComponent(id)}`, { method: 'PUT', body });

export function useUpdatePricingPlan() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updatePricingPlan, onSuccess: () => invalidatePricingViews(qc) });
}
