import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const deleteClient = (tenantId: string, clientId: string) =>
  api<{ ok: true }>(`/tenants/${encodeURIComponent(tenantId)}/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' });

export function useDeleteClient(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => deleteClient(tenantId, clientId),
    onSuccess: (_data, clientId) => {
      qc.removeQueries({ queryKey: queryKeys.client(tenantId, clientId) });
      return qc.invalidateQueries({ queryKey: queryKeys.clients(tenantId) });
    },
  });
}
