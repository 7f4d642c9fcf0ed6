import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchPricingSettings } from './pricing-api.ts';
import { queryKeys } from './query-keys.ts';

/** Currency, billing cycle, discount and tax: edited in System Administration (the home page loads them itself). */
export const pricingSettingsQuery = queryOptions({ queryKey: queryKeys.pricingSettings, queryFn: fetchPricingSettings });

export const usePricingSettings = (options: { staleTime?: number } = {}) => useQuery({ ...pricingSettingsQuery, ...options });
