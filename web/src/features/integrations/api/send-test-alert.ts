import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { integrationsPath } from './list-integrations.ts';

export const sendTestAlert = (tenantId: string, id: string) =>
  api<{ alertId: string; dedupKey: string }>(`${integrationsPath(tenantId)}/${encodeURIComponent(id)}/test`, { method: 'POST', body: {} });

export function useSendTestAlert(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendTestAlert(tenantId, id),
    // Its "last used" time and the tenant's alerts changed.
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tenant(tenantId) }),
  });
}
