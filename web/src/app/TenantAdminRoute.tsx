import { TenantAdminPage } from '../features/tenant-admin/pages/TenantAdminPage.tsx';
import { IntegrationsPanel } from '../features/integrations/components/IntegrationsPanel.tsx';
import { HeartbeatsPanel } from '../features/heartbeats/components/HeartbeatsPanel.tsx';

/** Tenant Administration with its Integrations and Heartbeats tabs: features do not import each other, the app composes them. */
export function TenantAdminRoute() {
  return (
    <TenantAdminPage
      renderIntegrations={(tenantId) => <IntegrationsPanel tenantId={tenantId} />}
      renderHeartbeats={(tenantId) => <HeartbeatsPanel tenantId={tenantId} />}
    />
  );
}
