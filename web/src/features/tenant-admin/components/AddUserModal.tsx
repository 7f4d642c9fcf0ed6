import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../../../contract/messages.ts';
import { INVITATION_TTL_DAYS, MEMBERS_MSG, type AssignableRole } from '../../../../../contract/members.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { ApiError, refusalReason } from '../../../lib/api.ts';
import { useInviteMember } from '../api/invite-member.ts';

export const ROLE_OPTIONS = [
  { value: 'user', label: 'User' },
  { value: 'admin', label: 'Admin' },
];

/** Add User: an email (the button stays disabled while it is empty) and a role; sends a real invitation. */
export function AddUserModal({ tenantId, opened, onClose }: { tenantId: string; opened: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('user');
  const invite = useInviteMember(tenantId);
  // The address itself is the problem (already a member, invalid): say it under the field. Anything else, in an alert.
  const fieldError = invite.error instanceof ApiError && invite.error.fields.email && invite.error.code !== 'user_limit_reached' ? refusalReason(invite.error) : null;

  const close = () => {
    setEmail('');
    setRole('user');
    invite.reset();
    onClose();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return;
    try {
      const res = await invite.mutateAsync({ email: email.trim(), role });
      if (res.emailSent) notifications.show({ color: 'green', message: `${MEMBERS_MSG.invitationSent} to ${res.member.email}` });
      else notifications.show({ color: 'yellow', message: MEMBERS_MSG.invitationEmailFailed, autoClose: 10_000 });
      close();
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Add User" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            We will email an invitation link, valid for {INVITATION_TTL_DAYS} days. The person joins with the role you choose.
          </Text>
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              if (invite.error) invite.reset();
            }}
            error={fieldError}
          />
          <Select label="Role" data={ROLE_OPTIONS} value={role} onChange={(v) => v && setRole(v as AssignableRole)} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
          {invite.error && !fieldError ? <FailureAlert title={MSG.tenantUserAddFailed} error={invite.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!email.trim()} loading={invite.isPending}>
              Add User
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
