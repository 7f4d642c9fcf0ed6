import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlatformAnalytics } from '../../../../../contract/system.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchAnalytics = () => api<PlatformAnalytics>('/system/analytics');

export const analyticsQuery = queryOptions({ queryKey: queryKeys.systemAnalytics, queryFn: fetchAnalytics });

export const useAnalytics = () => useQuery(analyticsQuery);
