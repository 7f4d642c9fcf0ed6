import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client, ClientInputBody } from '../../../../../contract/clients.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateClient = (tenantId: string, clientId: string, body: ClientInputBody) =>
  api<Client>(`/tenants/${encodeURIComponent(tenantId)}/clients/${encodeURIComponent(clientId)}`, { method: 'PUT', body });

export function useUpdateClient(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, body }: { clientId: string; body: ClientInputBody }) => updateClient(tenantId, clientId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.clients(tenantId) }),
  });
}
