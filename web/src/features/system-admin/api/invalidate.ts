import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * After a tenant changes: the admin lists and figures, and `me` (the super admin may belong to that tenant; its
 * name, plan or very existence shows in the header's tenant selector).
 */
export function invalidateTenantViews(qc: QueryClient) {
  return Promise.all([qc.invalidateQueries({ queryKey: queryKeys.system }), qc.invalidateQueries({ queryKey: queryKeys.me })]);
}

/** After a plan or the pricing settings change: every plan list (home, wizard, admin) and the tenants' plan names. */
export function invalidatePricingViews(qc: QueryClient) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.pricingPlans }),
    qc.invalidateQueries({ queryKey: queryKeys.pricingSettings }),
    qc.invalidateQueries({ queryKey: queryKeys.systemTenants }),
  ]);
}
