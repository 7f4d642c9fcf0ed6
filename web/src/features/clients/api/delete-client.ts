import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { clientsKey } from './list-clients.ts';

export const deleteClient = (tenantId: string, clientId: string) =>
  api<{ ok: true }>(`/tenants/${encodeURIComponent(tenantId)}/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' });

export function useDeleteClient(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => deleteClient(tenantId, clientId),
    onSuccess: (_data, clientId) => {
      qc.removeQueries({ queryKey: [...clientsKey(tenantId), 'detail', clientId] });
      return qc.invalidateQueries({ queryKey: clientsKey(tenantId) });
    },
  });
}
