import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { APPROVAL_MSG, type ApprovalPolicy } from '../../../../../contract/approvals.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useDeleteApprovalPolicy } from '../api/approval-policies.ts';

/** Delete Approval Policy: a soft delete, so the question says what happens to the requests already made under it. */
export function PolicyDeleteModal({ tenantId, policy, onClose }: { tenantId: string; policy: ApprovalPolicy | null; onClose: () => void }) {
  const remove = useDeleteApprovalPolicy(tenantId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!policy) return;
    remove.mutate(policy.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: APPROVAL_MSG.policyDeleted });
        close();
      },
    });
  };
  return (
    <ConfirmModal
      opened={!!policy}
      title="Delete Approval Policy"
      confirmLabel="Delete"
      loading={remove.isPending}
      cancelDisabled={remove.isPending}
      onConfirm={confirm}
      onClose={close}
      failure={{ title: MSG.policyDeleteFailed, error: remove.error }}
      data-testid="approval-policy-delete"
    >
      {policy && <Text className="wrap-anywhere">{APPROVAL_MSG.deletePolicyConfirm(policy.name)}</Text>}
    </ConfirmModal>
  );
}
