import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { integrationsPath } from './list-integrations.ts';

export const rotateIntegrationKey = (tenantId: string, id: string) =>
  api<IntegrationWithKey>(`${integrationsPath(tenantId)}/${encodeURIComponent(id)}/rotate`, { method: 'POST', body: {} });

export function useRotateIntegrationKey(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => rotateIntegrationKey(tenantId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.integrations(tenantId) }),
  });
}
