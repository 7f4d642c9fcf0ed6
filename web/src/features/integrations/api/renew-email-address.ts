import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Integration } from '../../../../../contract/integrations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { integrationsPath } from './list-integrations.ts';

export const renewEmailAddress = (tenantId: string, id: string) =>
  api<Integration>(`${integrationsPath(tenantId)}/${encodeURIComponent(id)}/renew-email`, { method: 'POST', body: {} });

export function useRenewEmailAddress(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => renewEmailAddress(tenantId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.integrations(tenantId) }),
  });
}
