import { useQuery } from '@tanstack/react-query';
import { DESTINATION_TYPE_LABELS, type Destination, type DestinationList } from '../../../../../contract/destinations.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';

/**
 * The tenant's destinations, for a level's "Also post to" (issue 29). Under the key the Destinations screen lists them
 * by (its writes refresh this too); read only by those who manage destinations (owners and admins: the list answers
 * 403 to anyone else, who see how many a level posts to).
 */
export function useLevelDestinations(tenantId: string, wanted = true) {
  const { tenant } = useCurrentTenant();
  const allowed = tenant?.id === tenantId && tenant.abilities.manageIntegrations;
  return useQuery({
    queryKey: [...queryKeys.tenant(tenantId), 'destinations', 'list'],
    queryFn: ({ signal }): Promise<Destination[]> => api<DestinationList>(`/tenants/${encodeURIComponent(tenantId)}/destinations`, { signal }).then((r) => r.items),
    enabled: allowed && wanted,
  });
}

/** "#noc-globex (Slack)", "PSA bridge (Webhook)". */
export const destinationLabel = (d: Pick<Destination, 'name' | 'type'>) => `${d.name} (${DESTINATION_TYPE_LABELS[d.type]})`;
