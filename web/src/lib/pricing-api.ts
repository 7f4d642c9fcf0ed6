import type { PricingPlan, PricingSettings } from '../../../contract/pricing.ts';
import { api } from './api.ts';

/** The public plans in sort order (a signed-in super admin also receives the private ones: they are left out). */
export const fetchPublicPlans = () => api<{ items: PricingPlan[] }>('/pricingPlans').then((r) => r.items.filter((p) => p.isPublic));

/** Currency, billing cycle, discount and tax: shown on the home page, edited in System Administration. */
export const fetchPricingSettings = () => api<PricingSettings>('/settings/pricing');
