import { Alert, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ESCALATION_MSG, type EscalationPolicy } from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useDeletePolicy } from '../api/policies.ts';

/** The delete confirmation of spec section 2: it warns when the policy is the default. */
export function PolicyDeleteModal({ tenantId, policy, onClose }: { tenantId: string; policy: EscalationPolicy | null; onClose: () => void }) {
  const remove = useDeletePolicy(tenantId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!policy) return;
    remove.mutate(policy.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: ESCALATION_MSG.deleted });
        close();
      },
    });
  };
  return (
    <ConfirmModal
      opened={!!policy}
      title="Delete Policy"
      confirmLabel="Delete"
      loading={remove.isPending}
      cancelDisabled={remove.isPending}
      onConfirm={confirm}
      onClose={close}
      failure={{ title: MSG.policyDeleteFailed, error: remove.error }}
      data-testid="policy-delete"
    >
      {policy && <Text className="wrap-anywhere">{ESCALATION_MSG.deleteConfirm(policy.name)}</Text>}
      {policy?.isDefault && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} data-testid="policy-delete-default-warning">
          {ESCALATION_MSG.deleteDefaultWarning}
        </Alert>
      )}
    </ConfirmModal>
  );
}
