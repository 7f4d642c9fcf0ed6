import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../../../contract/messages.ts';
import type { AssignableRole, TenantMember } from '../../../../../contract/members.ts';
import { useChangeMemberRole } from '../api/change-member-role.ts';
import { ROLE_OPTIONS } from './AddUserModal.tsx';
import { FailureAlert } from '../../../components/FailureAlert.tsx';

/** Edit User: the email read-only, the role User or Admin, Save Changes. */
export function EditUserModal({ tenantId, member, onClose }: { tenantId: string; member: TenantMember; onClose: () => void }) {
  const current: AssignableRole = member.role === 'admin' ? 'admin' : 'user';
  const [role, setRole] = useState<AssignableRole>(current);
  const change = useChangeMemberRole(tenantId);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    // Nothing changed: nothing to save, and no toast claiming a change.
    if (role === current) return onClose();
    try {
      await change.mutateAsync({ memberId: member.id, role });
      notifications.show({ color: 'green', message: `${member.displayName} is now ${role === 'admin' ? 'an Admin' : 'a User'}.` });
      onClose();
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <Modal opened onClose={onClose} title="Edit User" centered>
      <form onSubmit={save} noValidate>
        <Stack>
          <TextInput label="Email" value={member.email} readOnly variant="filled" description="Email cannot be changed here" />
          <Select label="Role" data={ROLE_OPTIONS} value={role} onChange={(v) => v && setRole(v as AssignableRole)} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
          {change.error ? <FailureAlert title={MSG.tenantUserRoleFailed} error={change.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={change.isPending}>
              Save Changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
