import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { APPROVAL_MSG, type ApprovalRequestSummary } from '../../../../../contract/approvals.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useApprovalAction } from '../api/approval-actions.ts';

/** My Requests' Cancel: asks first, since a cancelled request cannot be reopened. */
export function CancelRequestModal({ tenantId, request, onClose }: { tenantId: string; request: ApprovalRequestSummary | null; onClose: () => void }) {
  const act = useApprovalAction(tenantId);
  const close = () => {
    act.reset();
    onClose();
  };
  const confirm = () => {
    if (!request) return;
    act.mutate(
      { requestId: request.id, action: 'cancel' },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: APPROVAL_MSG.cancelled });
          close();
        },
      },
    );
  };
  return (
    <ConfirmModal
      opened={!!request}
      title="Cancel Request"
      confirmLabel="Cancel Request"
      cancelLabel="Keep Request"
      loading={act.isPending}
      cancelDisabled={act.isPending}
      onConfirm={confirm}
      onClose={close}
      // A 409 says it was decided meanwhile: the spec's own text, not a failure.
      failure={{ title: act.error instanceof ApiError && act.error.status === 409 ? APPROVAL_MSG.notPending : APPROVAL_MSG.cancelFailed, error: act.error }}
      data-testid="request-cancel"
    >
      {request && (
        <Text className="wrap-anywhere">
          Cancel “{request.title}”? Its approvers will no longer be asked to decide, and it cannot be reopened.
        </Text>
      )}
    </ConfirmModal>
  );
}
