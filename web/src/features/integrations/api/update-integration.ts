import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Integration } from '../../../../../contract/integrations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { integrationsPath } from './list-integrations.ts';
import type { IntegrationInput } from './create-integration.ts';

export const updateIntegration = (tenantId: string, id: string, body: IntegrationInput) =>
  api<Integration>(`${integrationsPath(tenantId)}/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export function useUpdateIntegration(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: IntegrationInput & { id: string }) => updateIntegration(tenantId, id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.integrations(tenantId) }),
  });
}
