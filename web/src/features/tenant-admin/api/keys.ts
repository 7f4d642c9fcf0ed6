/** Every Tenant Administration query of a tenant starts with this key, so one invalidation refreshes list and details. */
export const tenantAdminKey = (tenantId: string) => ['tenant', tenantId, 'tenant-admin'] as const;
