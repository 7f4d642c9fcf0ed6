import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Heartbeat, HeartbeatInput } from '../../../../../contract/heartbeats.ts';
import { api } from '../../../lib/api.ts';
import { heartbeatsKey, heartbeatsPath } from './list-heartbeats.ts';

export const updateHeartbeat = (tenantId: string, id: string, body: HeartbeatInput) =>
  api<Heartbeat>(`${heartbeatsPath(tenantId)}/${encodeURIComponent(id)}`, { method: 'PUT', body });

export function useUpdateHeartbeat(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: HeartbeatInput & { id: string }) => updateHeartbeat(tenantId, id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: heartbeatsKey(tenantId) }),
  });
}
