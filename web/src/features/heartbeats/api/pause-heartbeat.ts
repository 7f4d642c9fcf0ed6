import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Heartbeat } from '../../../../../contract/heartbeats.ts';
import { api } from '../../../lib/api.ts';
import { heartbeatsKey, heartbeatsPath } from './list-heartbeats.ts';

/** Pause (no deadline, never down) or resume (new, or up with a whole interval from now). */
export const setHeartbeatPaused = (tenantId: string, id: string, paused: boolean) =>
  api<Heartbeat>(`${heartbeatsPath(tenantId)}/${encodeURIComponent(id)}/${paused ? 'pause' : 'resume'}`, { method: 'POST', body: {} });

export function useSetHeartbeatPaused(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) => setHeartbeatPaused(tenantId, id, paused),
    onSuccess: () => qc.invalidateQueries({ queryKey: heartbeatsKey(tenantId) }),
  });
}
