import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  OnCallList,
  OnCallMember,
  Override,
  OverrideInputBody,
  OverrideList,
  Schedule,
  ScheduleInputBody,
  ScheduleList,
  Timeline,
} from '../../../../../contract/schedules.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const tenantPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}`;
const schedulesPath = (tenantId: string) => `${tenantPath(tenantId)}/onCallSchedules`;
const schedulePath = (tenantId: string, id: string) => `${schedulesPath(tenantId)}/${encodeURIComponent(id)}`;

export const fetchSchedules = (tenantId: string, signal?: AbortSignal) => api<ScheduleList>(schedulesPath(tenantId), { signal }).then((r) => r.items);
export const schedulesQuery = (tenantId: string) => queryOptions({ queryKey: queryKeys.scheduleList(tenantId), queryFn: ({ signal }) => fetchSchedules(tenantId, signal) });
/** The tenant's on-call schedules, the default first (also the escalation-policy form's schedule picker). */
export const useSchedules = (tenantId: string) => useQuery(schedulesQuery(tenantId));

/** Members who can be put on call, by name; every member may read them. */
export const fetchOnCallMembers = (tenantId: string, signal?: AbortSignal) => api<{ items: OnCallMember[] }>(`${tenantPath(tenantId)}/onCallMembers`, { signal }).then((r) => r.items);
export const useOnCallMembers = (tenantId: string) => useQuery({ queryKey: queryKeys.onCallMembers(tenantId), queryFn: ({ signal }) => fetchOnCallMembers(tenantId, signal), staleTime: 60_000 });

/** Who is on call now on every schedule, and the next handover; refreshed every minute while shown. */
export const fetchOnCallNow = (tenantId: string, signal?: AbortSignal) => api<OnCallList>(`${tenantPath(tenantId)}/onCall`, { signal });
export const useOnCallNow = (tenantId: string) => useQuery({ queryKey: queryKeys.onCallNow(tenantId), queryFn: ({ signal }) => fetchOnCallNow(tenantId, signal), refetchInterval: 60_000 });

export const fetchTimeline = (tenantId: string, id: string, signal?: AbortSignal) => api<Timeline>(`${schedulePath(tenantId, id)}/timeline`, { signal });
export const useScheduleTimeline = (tenantId: string, id: string) => useQuery({ queryKey: queryKeys.scheduleTimeline(tenantId, id), queryFn: ({ signal }) => fetchTimeline(tenantId, id, signal) });

export const fetchOverrides = (tenantId: string, id: string, signal?: AbortSignal) => api<OverrideList>(`${schedulePath(tenantId, id)}/overrides`, { signal }).then((r) => r.items);
export const useScheduleOverrides = (tenantId: string, id: string) => useQuery({ queryKey: queryKeys.scheduleOverrides(tenantId, id), queryFn: ({ signal }) => fetchOverrides(tenantId, id, signal) });

export const createSchedule = (tenantId: string, body: ScheduleInputBody) => api<Schedule>(schedulesPath(tenantId), { method: 'POST', body });
export const updateSchedule = (tenantId: string, id: string, body: ScheduleInputBody) => api<Schedule>(schedulePath(tenantId, id), { method: 'PUT', body });
export const deleteSchedule = (tenantId: string, id: string) => api<{ ok: true }>(schedulePath(tenantId, id), { method: 'DELETE' });
export const createOverride = (tenantId: string, id: string, body: OverrideInputBody) => api<Override>(`${schedulePath(tenantId, id)}/overrides`, { method: 'POST', body });
export const deleteOverride = (tenantId: string, id: string, overrideId: string) =>
  api<{ ok: true }>(`${schedulePath(tenantId, id)}/overrides/${encodeURIComponent(overrideId)}`, { method: 'DELETE' });

/** Everything a schedule change can move: the list (a new default clears another), who is on call, timelines. */
const useInvalidateSchedules = (tenantId: string) => {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: queryKeys.schedules(tenantId) });
};

export function useSaveSchedule(tenantId: string) {
  const invalidate = useInvalidateSchedules(tenantId);
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ScheduleInputBody }) => (id ? updateSchedule(tenantId, id, body) : createSchedule(tenantId, body)),
    onSuccess: invalidate,
  });
}

export function useDeleteSchedule(tenantId: string) {
  const invalidate = useInvalidateSchedules(tenantId);
  return useMutation({ mutationFn: (id: string) => deleteSchedule(tenantId, id), onSuccess: invalidate });
}

export function useCreateOverride(tenantId: string, scheduleId: string) {
  const invalidate = useInvalidateSchedules(tenantId);
  return useMutation({ mutationFn: (body: OverrideInputBody) => createOverride(tenantId, scheduleId, body), onSuccess: invalidate });
}

export function useDeleteOverride(tenantId: string, scheduleId: string) {
  const invalidate = useInvalidateSchedules(tenantId);
  return useMutation({ mutationFn: (overrideId: string) => deleteOverride(tenantId, scheduleId, overrideId), onSuccess: invalidate });
}
