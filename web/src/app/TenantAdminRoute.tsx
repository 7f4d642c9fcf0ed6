import { TenantAdminPage } from '../features/tenant-admin/pages/TenantAdminPage.tsx';
import { IntegrationsPanel } from '../features/integrations/components/IntegrationsPanel.tsx';

/** Tenant Administration with its Integrations tab: features do not import each other, the app composes them. */
export function TenantAdminRoute() {
  return <TenantAdminPage renderIntegrations={(tenantId) => <IntegrationsPanel tenantId={tenantId} />} />;
}
