import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingSettings } from '../../../../../contract/pricing.ts';
import { api } from '../../../lib/api.ts';

export const fetchPricingSettings = () => api<PricingSettings>('/settings/pricing');

export const pricingSettingsQuery = queryOptions({ queryKey: ['settings', 'pricing'], queryFn: fetchPricingSettings });

export const usePricingSettings = () => useQuery(pricingSettingsQuery);
