import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { api } from '../../../lib/api.ts';
import { heartbeatsKey, heartbeatsPath } from './list-heartbeats.ts';

/** A new ping URL (shown once); the current one stops working at once. */
export const renewPingUrl = (tenantId: string, id: string) =>
  api<HeartbeatWithPingUrl>(`${heartbeatsPath(tenantId)}/${encodeURIComponent(id)}/renew`, { method: 'POST', body: {} });

export function useRenewPingUrl(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => renewPingUrl(tenantId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: heartbeatsKey(tenantId) }),
  });
}
