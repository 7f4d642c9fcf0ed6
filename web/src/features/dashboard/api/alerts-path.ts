export const alertsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/alerts`;
