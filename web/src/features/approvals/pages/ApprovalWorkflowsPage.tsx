import { ComingSoon } from '../../../components/ComingSoon.tsx';

export function ApprovalWorkflowsPage() {
  return <ComingSoon title="Approval Workflows" />;
}
