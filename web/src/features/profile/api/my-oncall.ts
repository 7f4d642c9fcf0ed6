import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeedCreated, MyOnCall, OnCallMember, Override, OverrideInputBody } from '../../../../../contract/schedules.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const path = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/myOnCall`;

export const fetchMyOnCall = (tenantId: string, signal?: AbortSignal) => api<MyOnCall>(path(tenantId), { signal });
export const myOnCallQuery = (tenantId: string) => queryOptions({ queryKey: queryKeys.myOnCall(tenantId), queryFn: ({ signal }) => fetchMyOnCall(tenantId, signal) });
/** My shifts of the next 90 days in this tenant, and whether my calendar feed is on. */
export const useMyOnCall = (tenantId: string) => useQuery(myOnCallQuery(tenantId));

export const createCalendarFeed = (tenantId: string) => api<CalendarFeedCreated>(`${path(tenantId)}/calendarFeed`, { method: 'POST', body: {} });
export const revokeCalendarFeed = (tenantId: string) => api<{ ok: true }>(`${path(tenantId)}/calendarFeed`, { method: 'DELETE' });

/** Makes or renews (the old URL stops working) my secret calendar URL; the answer holds it, once. */
export function useCreateCalendarFeed(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: () => createCalendarFeed(tenantId), onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.myOnCall(tenantId) }) });
}

export function useRevokeCalendarFeed(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: () => revokeCalendarFeed(tenantId), onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.myOnCall(tenantId) }) });
}

/** Colleagues who can take a shift over (every member may read them). */
export const fetchColleagues = (tenantId: string, signal?: AbortSignal) =>
  api<{ items: OnCallMember[] }>(`/tenants/${encodeURIComponent(tenantId)}/onCallMembers`, { signal }).then((r) => r.items);
export const useColleagues = (tenantId: string, enabled: boolean) => useQuery({ queryKey: queryKeys.onCallMembers(tenantId), queryFn: ({ signal }) => fetchColleagues(tenantId, signal), enabled, staleTime: 60_000 });

/** Hands one of my shifts to a colleague: an override replacing me on that schedule for the shift's time. */
export const handOver = (tenantId: string, scheduleId: string, body: OverrideInputBody) =>
  api<Override>(`/tenants/${encodeURIComponent(tenantId)}/onCallSchedules/${encodeURIComponent(scheduleId)}/overrides`, { method: 'POST', body });

export function useHandOver(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, body }: { scheduleId: string; body: OverrideInputBody }) => handOver(tenantId, scheduleId, body),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: queryKeys.myOnCall(tenantId) }), qc.invalidateQueries({ queryKey: queryKeys.schedules(tenantId) })]),
  });
}
