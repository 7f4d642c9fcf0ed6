import { ComingSoon } from '../../../components/ComingSoon.tsx';

export function TenantAdminPage() {
  return <ComingSoon title="Tenant Administration" />;
}
