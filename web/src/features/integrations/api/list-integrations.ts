import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Integration } from '../../../../../contract/integrations.ts';
import { api } from '../../../lib/api.ts';

export const integrationsKey = (tenantId: string) => ['tenant', tenantId, 'integrations'] as const;
export const integrationsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/integrations`;

export const fetchIntegrations = (tenantId: string, signal?: AbortSignal) =>
  api<{ items: Integration[]; total: number }>(integrationsPath(tenantId), { signal }).then((r) => r.items);

export const integrationsQueryOptions = (tenantId: string) =>
  queryOptions({ queryKey: integrationsKey(tenantId), queryFn: ({ signal }) => fetchIntegrations(tenantId, signal) });

export const useIntegrations = (tenantId: string) => useQuery(integrationsQueryOptions(tenantId));
