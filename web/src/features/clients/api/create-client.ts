import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client, ClientInputBody } from '../../../../../contract/clients.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const createClient = (tenantId: string, body: ClientInputBody) =>
  api<Client>(`/tenants/${encodeURIComponent(tenantId)}/clients`, { method: 'POST', body });

export function useCreateClient(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientInputBody) => createClient(tenantId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.clients(tenantId) }),
  });
}
