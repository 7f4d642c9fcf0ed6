import { APPROVAL_MSG, type ApprovalPolicy } from '../../../../../contract/approvals.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { ConfirmDeleteModal, type DeleteTexts } from '../../../components/ConfirmDeleteModal.tsx';
import { useDeleteApprovalPolicy } from '../api/approval-policies.ts';

const TEXTS: DeleteTexts<ApprovalPolicy> = { title: 'Delete Approval Policy', question: (p) => APPROVAL_MSG.deletePolicyConfirm(p.name), deleted: APPROVAL_MSG.policyDeleted, failed: MSG.policyDeleteFailed };

/** Delete Approval Policy: a soft delete, so the question says what happens to the requests already made under it. */
export function PolicyDeleteModal({ tenantId, policy, onClose }: { tenantId: string; policy: ApprovalPolicy | null; onClose: () => void }) {
  return <ConfirmDeleteModal record={policy} remove={useDeleteApprovalPolicy(tenantId)} texts={TEXTS} onClose={onClose} data-testid="approval-policy-delete" />;
}
