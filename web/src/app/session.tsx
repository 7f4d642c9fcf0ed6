import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse, MeTenant } from '../../../contract/auth.ts';
import { api, ApiError } from '../lib/api.ts';

/** The signed-in user (null when signed out). */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async () => {
    try {
      return await api<MeResponse>('/me');
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    }
  },
  staleTime: 60_000,
  retry: (count, e) => !(e instanceof ApiError && e.status < 500) && count < 2,
});

export const useMe = () => useQuery(meQuery);

const TENANT_KEY = 'currentTenantId';

interface TenantState {
  tenant: MeTenant | null;
  tenants: MeTenant[];
  setTenantId(id: string): void;
}
const TenantContext = createContext<TenantState>({ tenant: null, tenants: [], setTenantId: () => {} });

/** The current tenant: the one chosen in the header selector, remembered in this browser, else the first. */
export function CurrentTenantProvider({ me, children }: { me: MeResponse; children: ReactNode }) {
  const qc = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(TENANT_KEY));
  const tenant = me.tenants.find((t) => t.id === chosen) ?? me.tenants[0] ?? null;
  useEffect(() => {
    if (tenant && tenant.id !== chosen) setChosen(tenant.id);
  }, [tenant, chosen]);
  const setTenantId = useCallback(
    (id: string) => {
      localStorage.setItem(TENANT_KEY, id);
      setChosen(id);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] === 'tenant' });
    },
    [qc],
  );
  const value = useMemo(() => ({ tenant, tenants: me.tenants, setTenantId }), [tenant, me.tenants, setTenantId]);
  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

export const useCurrentTenant = () => useContext(TenantContext);

/** The signed-in user inside /app (the guard guarantees one). */
export function useSignedInMe(): MeResponse {
  const { data } = useMe();
  if (!data) throw new Error('useSignedInMe outside the signed-in area');
  return data;
}
