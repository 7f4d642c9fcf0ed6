import { ComingSoon } from '../../../components/ComingSoon.tsx';

export function SystemAdminPage() {
  return <ComingSoon title="System Administration" />;
}
