/** Every alert query of a tenant starts with this key: one invalidation (a live event, an action) refreshes them all. */
export const alertsKey = (tenantId: string) => ['tenant', tenantId, 'alerts'] as const;

export const alertsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/alerts`;
