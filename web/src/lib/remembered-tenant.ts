import type { MeResponse } from '../../../contract/auth.ts';

// Its own small module: the dashboard route's prefetch (issue 33) reads the choice before the signed-in app's code.
const TENANT_KEY = 'currentTenantId';

/** Makes `tenantId` the current tenant of this browser from the next start of the app (e.g. one just joined). */
export function rememberTenant(tenantId: string) {
  try {
    localStorage.setItem(TENANT_KEY, tenantId);
  } catch {
    /* private mode: the first tenant opens */
  }
}

export function rememberedTenantId(): string | null {
  try {
    return localStorage.getItem(TENANT_KEY);
  } catch {
    return null;
  }
}

/** The tenant chosen in the header selector, remembered in this browser, else the first. */
export const tenantOf = (me: MeResponse, chosen: string | null) => me.tenants.find((t) => t.id === chosen) ?? me.tenants[0] ?? null;
