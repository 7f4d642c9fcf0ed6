import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailSettingsInput, IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { integrationsPath } from './list-integrations.ts';

export interface IntegrationInput {
  name: string;
  clientId: string | null;
  escalationPolicyId: string | null;
  emailSettings?: EmailSettingsInput;
}

export const createIntegration = (tenantId: string, body: IntegrationInput) => api<IntegrationWithKey>(integrationsPath(tenantId), { method: 'POST', body });

export function useCreateIntegration(tenantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: IntegrationInput) => createIntegration(tenantId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.integrations(tenantId) }),
  });
}
