import { ComingSoon } from '../../../components/ComingSoon.tsx';

export function ClientsPage() {
  return <ComingSoon title="Client Management" />;
}
