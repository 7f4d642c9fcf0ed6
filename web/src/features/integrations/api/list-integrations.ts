import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Integration } from '../../../../../contract/integrations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const integrationsPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/integrations`;

export const fetchIntegrations = (tenantId: string, signal?: AbortSignal) =>
  api<{ items: Integration[]; total: number }>(integrationsPath(tenantId), { signal }).then((r) => r.items);

export const integrationsQueryOptions = (tenantId: string) =>
  queryOptions({ queryKey: queryKeys.integrations(tenantId), queryFn: ({ signal }) => fetchIntegrations(tenantId, signal) });

export const useIntegrations = (tenantId: string) => useQuery(integrationsQueryOptions(tenantId));
