import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../../../contract/auth.ts';
import { api } from '../../../lib/api.ts';

// Same key as the sign-in page's copy: one request per session.
export const serverConfigQuery = queryOptions({ queryKey: ['config'], queryFn: () => api<PublicConfig>('/config'), staleTime: Infinity });

export const useServerConfig = () => useQuery(serverConfigQuery);
