import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingSettings } from '../../../contract/pricing.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

export const fetchPricingSettings = () => api<PricingSettings>('/settings/pricing');

/** Currency, billing cycle, discount and tax: shown on the home page, edited in System Administration. */
export const pricingSettingsQuery = queryOptions({ queryKey: queryKeys.pricingSettings, queryFn: fetchPricingSettings });

export const usePricingSettings = (options: { staleTime?: number } = {}) => useQuery({ ...pricingSettingsQuery, ...options });
