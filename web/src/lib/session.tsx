import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse, MeTenant, PublicUser } from '../../../contract/auth.ts';
import { api } from './api.ts';
import { queryKeys, removeTenantQueries } from './query-keys.ts';
import { meQuery } from './me-query.ts';
import { rememberedTenantId, rememberTenant, tenantOf } from './remembered-tenant.ts';

export { meQuery };

export const useMe = () => useQuery(meQuery);

export const signIn = (body: { email: string; password: string }) => api<MeResponse>('/auth/sign-in', { body });

export const signOut = () => api<{ ok: true }>('/auth/sign-out', { method: 'POST', body: {} });

/** Sign-in that puts the new session into the cache at once. */
export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: signIn, onSuccess: (me) => qc.setQueryData(queryKeys.me, me) });
}

/** Signs out and forgets every cached answer, whether or not the server could be told; then `after` runs. */
export function useSignOut(after: () => void) {
  const qc = useQueryClient();
  return async () => {
    try {
      await signOut();
    } finally {
      qc.clear();
      after();
    }
  };
}

export { rememberTenant };

interface TenantState {
  tenant: MeTenant | null;
  tenants: MeTenant[];
  setTenantId(id: string): void;
}
const TenantContext = createContext<TenantState>({ tenant: null, tenants: [], setTenantId: () => {} });

// Users whose browser zone this page load already tried to save: a refusal or a failure is not retried on every
// refetch of /me, only at the next start of the app.
const zoneDefaultTried = new Set<string>();

/**
 * Issue 25: a person's time zone defaults to their browser's. Sign-up does not send it, so the first signed-in load
 * that finds none stored saves this browser's, once and quietly (no toast); a zone already set is never touched.
 */
function useBrowserTimeZoneDefault(me: MeResponse) {
  const qc = useQueryClient();
  const { id, timeZone } = me.user;
  useEffect(() => {
    if (timeZone !== null || zoneDefaultTried.has(id)) return;
    zoneDefaultTried.add(id);
    let zone: string | undefined;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch {
      return;
    }
    if (!zone) return;
    api<{ user: PublicUser }>('/profile', { method: 'PATCH', body: { timeZone: zone } })
      .then(({ user }) => qc.setQueryData<MeResponse | null>(queryKeys.me, (old) => (old && old.user.id === user.id ? { ...old, user } : old)))
      .catch(() => {
        /* quiet: the zone stays unset (times read as UTC) until the next start of the app tries again */
      });
  }, [id, timeZone, qc]);
}

/** The current tenant: the one chosen in the header selector, remembered in this browser, else the first. */
export function CurrentTenantProvider({ me, children }: { me: MeResponse; children: ReactNode }) {
  useBrowserTimeZoneDefault(me);
  const qc = useQueryClient();
  // The tenant it will show from the first render: an effect setting it after would render the whole app once more.
  const [chosen, setChosen] = useState<string | null>(() => tenantOf(me, rememberedTenantId())?.id ?? null);
  const tenant = tenantOf(me, chosen);
  useEffect(() => {
    if (tenant && tenant.id !== chosen) setChosen(tenant.id);
  }, [tenant, chosen]);
  const setTenantId = useCallback(
    (id: string) => {
      rememberTenant(id);
      setChosen(id);
      removeTenantQueries(qc);
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
