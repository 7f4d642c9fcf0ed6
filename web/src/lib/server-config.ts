import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../contract/auth.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

/** What the server tells every visitor (OIDC set up, push key, app host prefix): one request per page load. */
export const serverConfigQuery = queryOptions({ queryKey: queryKeys.config, queryFn: () => api<PublicConfig>('/config'), staleTime: Infinity });

export const useServerConfig = () => useQuery(serverConfigQuery);
