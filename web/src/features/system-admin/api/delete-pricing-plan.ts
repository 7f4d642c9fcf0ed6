import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidatePricingViews } from './invalidate.ts';

export const deletePricingPlan = (id: string) => api<{ ok: true }>(`/pricingPlans/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeletePricingPlan() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deletePricingPlan, onSuccess: () => invalidatePricingViews(qc) });
}
