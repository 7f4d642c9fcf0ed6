import { Alert as Callout, Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconTool } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MAINTENANCE_MSG } from '../../../../../contract/maintenance-text.ts';
import type { MaintenanceWindow, MaintenanceWindowList } from '../../../../../contract/maintenance.ts';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * "Maintenance window "Patch night" is active until …": shown while a window of the tenant is on (issue 31), to every
 * member; owners and admins get the way to the Maintenance tab. Read every 30 s (windows begin and end with time),
 * under the Escalation page's key for the same list, so a change there shows here at once. Nothing while loading or
 * failing: the dashboard's own figures say whether the server answers.
 */
export function MaintenanceBanner({ tenantId, canManage }: { tenantId: string; canManage: boolean }) {
  const query = useQuery({
    queryKey: [...queryKeys.tenant(tenantId), 'maintenance', 'list', 'current=true'],
    queryFn: ({ signal }) => api<MaintenanceWindowList>(`/tenants/${encodeURIComponent(tenantId)}/maintenanceWindows?current=true`, { signal }).then((r): MaintenanceWindow[] => r.items),
    refetchInterval: 30_000,
  });
  const active = (query.data ?? []).filter((w) => w.state === 'active');
  if (active.length === 0) return null;
  return (
    <Callout color="grape" icon={<IconTool size={18} aria-hidden />} mb="md" p="sm" data-testid="maintenance-banner">
      <Text size="sm" className="wrap-anywhere">
        {active.length === 1 ? MAINTENANCE_MSG.bannerOne(active[0].name, formatDateTime(active[0].activeUntil)) : MAINTENANCE_MSG.bannerMany(active.length)}{' '}
        {canManage && (
          <Anchor component={Link} to="/app/escalation-policies?tab=maintenance" size="sm" fw={600}>
            Manage
          </Anchor>
        )}
      </Text>
    </Callout>
  );
}
