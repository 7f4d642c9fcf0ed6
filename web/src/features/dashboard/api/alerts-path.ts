export const alertsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/alerts`;

/** The stat cards' figures. */
export const statsPath = (tenantId: string) => `${alertsPath(tenantId)}/stats`;
