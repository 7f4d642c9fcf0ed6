import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PricingSettings, PricingSettingsBody } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updatePricingSettings = (body: PricingSettingsBody) => api<PricingSettings>('/settings/pricing', { method: 'PUT', body });

export function useUpdatePricingSettings() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updatePricingSettings, onSuccess: (saved) => qc.setQueryData(queryKeys.pricingSettings, saved) });
}
