import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { heartbeatsKey, heartbeatsPath } from './list-heartbeats.ts';

export const deleteHeartbeat = (tenantId: string, id: string) => api<{ ok: true }>(`${heartbeatsPath(tenantId)}/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteHeartbeat(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteHeartbeat(tenantId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: heartbeatsKey(tenantId) }),
  });
}
