import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HeartbeatInput, HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { api } from '../../../lib/api.ts';
import { heartbeatsKey, heartbeatsPath } from './list-heartbeats.ts';

export const createHeartbeat = (tenantId: string, body: HeartbeatInput) => api<HeartbeatWithPingUrl>(heartbeatsPath(tenantId), { method: 'POST', body });

export function useCreateHeartbeat(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: HeartbeatInput) => createHeartbeat(tenantId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: heartbeatsKey(tenantId) }),
  });
}
