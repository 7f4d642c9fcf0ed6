import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApprovalRequest } from '../../../../../contract/approvals.ts';
import type { PagerOptions, ShiftSwap, ShiftSwapInputBody, ShiftSwapList, TakePagerResult } from '../../../../../contract/shift-swaps.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Shift swaps and "take the pager now" of My on-call (issue 27). Decisions go through the approval request. */

const tenantPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}`;
const swapsKey = (tenantId: string) => ['tenant', tenantId, 'shiftSwaps'] as const;
const pagerKey = (tenantId: string) => ['tenant', tenantId, 'pagerOptions'] as const;

/** Everything a swap or a taken pager changes: my shifts, the swaps, the schedules, the approvals pages. */
const refreshAfter = (qc: QueryClient, tenantId: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: swapsKey(tenantId) }),
    qc.invalidateQueries({ queryKey: pagerKey(tenantId) }),
    qc.invalidateQueries({ queryKey: queryKeys.myOnCall(tenantId) }),
    qc.invalidateQueries({ queryKey: queryKeys.schedules(tenantId) }),
    qc.invalidateQueries({ queryKey: queryKeys.approvals(tenantId) }),
  ]);

export const fetchShiftSwaps = (tenantId: string, signal?: AbortSignal) => api<ShiftSwapList>(`${tenantPath(tenantId)}/shiftSwaps`, { signal });
/** The swaps I asked for or was asked: pending ones and those not over yet. */
export const useShiftSwaps = (tenantId: string) => useQuery({ queryKey: swapsKey(tenantId), queryFn: ({ signal }) => fetchShiftSwaps(tenantId, signal) });

export const askShiftSwap = (tenantId: string, body: ShiftSwapInputBody) => api<ShiftSwap>(`${tenantPath(tenantId)}/shiftSwaps`, { method: 'POST', body });
export function useAskShiftSwap(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (body: ShiftSwapInputBody) => askShiftSwap(tenantId, body), onSuccess: () => refreshAfter(qc, tenantId) });
}

export type SwapDecision = { requestId: string } & ({ action: 'approve' } | { action: 'reject'; reason: string } | { action: 'cancel' });
export const decideShiftSwap = (tenantId: string, d: SwapDecision) =>
  api<ApprovalRequest>(`${tenantPath(tenantId)}/approvalRequests/${encodeURIComponent(d.requestId)}/${d.action}`, {
    method: 'POST',
    body: d.action === 'reject' ? { reason: d.reason } : {},
  });
/** Accept, decline or cancel a swap; a 409 (decided meanwhile) reloads the list too. */
export function useDecideShiftSwap(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (d: SwapDecision) => decideShiftSwap(tenantId, d), onSettled: () => refreshAfter(qc, tenantId) });
}

export const fetchPagerOptions = (tenantId: string, signal?: AbortSignal) => api<PagerOptions>(`${tenantPath(tenantId)}/pagerOptions`, { signal });
export const usePagerOptions = (tenantId: string) => useQuery({ queryKey: pagerKey(tenantId), queryFn: ({ signal }) => fetchPagerOptions(tenantId, signal) });

export const takePager = (tenantId: string, scheduleId: string, hours: number) =>
  api<TakePagerResult>(`${tenantPath(tenantId)}/onCallSchedules/${encodeURIComponent(scheduleId)}/takePager`, { method: 'POST', body: { hours } });
export function useTakePager(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: ({ scheduleId, hours }: { scheduleId: string; hours: number }) => takePager(tenantId, scheduleId, hours), onSettled: () => refreshAfter(qc, tenantId) });
}

export const savePagerSetting = (tenantId: string, scheduleId: string, participantsOnly: boolean) =>
  api<{ scheduleId: string; participantsOnly: boolean }>(`${tenantPath(tenantId)}/onCallSchedules/${encodeURIComponent(scheduleId)}/pagerSetting`, { method: 'PUT', body: { participantsOnly } });
export function useSavePagerSetting(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, participantsOnly }: { scheduleId: string; participantsOnly: boolean }) => savePagerSetting(tenantId, scheduleId, participantsOnly),
    onSettled: () => qc.invalidateQueries({ queryKey: pagerKey(tenantId) }),
  });
}
