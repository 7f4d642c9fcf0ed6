import { TenantAdminPage } from '../features/tenant-admin/pages/TenantAdminPage.tsx';
import { IntegrationsPanel } from '../features/integrations/components/IntegrationsPanel.tsx';
import { HeartbeatsPanel } from '../features/heartbeats/components/HeartbeatsPanel.tsx';
import { ApiTokensPanel } from '../features/api-tokens/components/ApiTokensPanel.tsx';
import { DestinationsPanel } from '../features/destinations/components/DestinationsPanel.tsx';
import { PsaPanel } from '../features/psa/components/PsaPanel.tsx';

/** Tenant Administration with its Integrations and Heartbeats tabs: features do not import each other, the app composes them. */
export function TenantAdminRoute() {
  return (
    <TenantAdminPage
      renderIntegrations={(tenantId) => <IntegrationsPanel tenantId={tenantId} />}
      renderHeartbeats={(tenantId) => <HeartbeatsPanel tenantId={tenantId} />}
      renderApiTokens={(tenantId) => <ApiTokensPanel tenantId={tenantId} />}
      renderDestinations={(tenantId) => <DestinationsPanel tenantId={tenantId} />}
      renderPsa={(tenantId) => <PsaPanel tenantId={tenantId} />}
    />
  );
}
