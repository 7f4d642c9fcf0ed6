import { ComingSoon } from '../../../components/ComingSoon.tsx';

export function EscalationPage() {
  return <ComingSoon title="Escalation Management" />;
}
