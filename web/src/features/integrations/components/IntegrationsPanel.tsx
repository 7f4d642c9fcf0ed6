import { ComingSoon } from '../../../components/ComingSoon.tsx';

/** Integration keys of a tenant (issue 3 fills this in; Tenant Admin shows it as a tab). */
export function IntegrationsPanel({ tenantId: _tenantId }: { tenantId: string }) {
  return <ComingSoon title="Integrations" />;
}
