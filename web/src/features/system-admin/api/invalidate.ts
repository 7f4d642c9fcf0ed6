import type { QueryClient } from '@tanstack/react-query';

/**
 * After a tenant changes: the admin lists and figures, and `me` (the super admin may belong to that tenant; its
 * name, plan or very existence shows in the header's tenant selector).
 */
export function invalidateTenantViews(qc: QueryClient) {
  return Promise.all([qc.invalidateQueries({ queryKey: ['system'] }), qc.invalidateQueries({ queryKey: ['me'] })]);
}

/** After a plan or the pricing settings change: every plan list (home, wizard, admin) and the tenants' plan names. */
export function invalidatePricingViews(qc: QueryClient) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['pricingPlans'] }),
    qc.invalidateQueries({ queryKey: ['settings', 'pricing'] }),
    qc.invalidateQueries({ queryKey: ['system', 'tenants'] }),
  ]);
}
