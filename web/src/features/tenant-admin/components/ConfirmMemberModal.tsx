import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../../../contract/messages.ts';
import type { TenantMember } from '../../../../../contract/members.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useRemoveMember } from '../api/remove-member.ts';

/** Remove User confirmation, or Revoke Invitation for a pending one (the server treats both as deleting the row). */
export function ConfirmMemberModal({ tenantId, tenantName, member, onClose }: { tenantId: string; tenantName: string; member: TenantMember; onClose: () => void }) {
  const remove = useRemoveMember(tenantId);
  const pending = member.status === 'invited';
  const confirm = async () => {
    try {
      await remove.mutateAsync(member.id);
      notifications.show({ color: 'green', message: pending ? `The invitation to ${member.email} was revoked.` : `${member.displayName} was removed from ${tenantName}.` });
      onClose();
    } catch {
      // Shown in the dialog.
    }
  };
  const action = pending ? 'Revoke Invitation' : 'Remove User';
  return (
    <ConfirmModal
      opened
      title={action}
      confirmLabel={action}
      loading={remove.isPending}
      onConfirm={confirm}
      onClose={onClose}
      failure={{ title: MSG.tenantUserRemoveFailed, error: remove.error }}
    >
      <Text>
        {pending
          ? `Are you sure you want to revoke the invitation to ${member.email}? The link in their email will stop working.`
          : `Are you sure you want to remove ${member.displayName} (${member.email}) from ${tenantName}? They lose access to this organization immediately.`}
      </Text>
    </ConfirmModal>
  );
}
