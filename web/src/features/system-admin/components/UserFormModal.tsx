import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../../../contract/messages.ts';
import { SYSTEM_MSG, type AdminUser } from '../../../../../contract/system.ts';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUserRole } from '../api/update-user-role.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';

const ROLES = [
  { value: 'user', label: 'User' },
  { value: 'superAdmin', label: 'Super Admin' },
];

/** Add User (email, role) or Edit User (email locked, role). Rendered only while open. */
export function UserFormModal({ user, isSelf, onClose }: { user: AdminUser | null; isSelf: boolean; onClose: () => void }) {
  const editing = user !== null;
  const [email, setEmail] = useState(user?.email ?? '');
  const [role, setRole] = useState<'user' | 'superAdmin'>(user?.role ?? 'user');
  const [emailError, setEmailError] = useState<string | null>(null);
  const create = useCreateUser();
  const update = useUpdateUserRole();
  const mutation = editing ? update : create;
  const fields = serverFieldErrors(mutation.error);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing && !email.trim()) return setEmailError(MSG.emailRequired);
    try {
      if (user) await update.mutateAsync({ id: user.id, role });
      else {
        await create.mutateAsync({ email: email.trim(), role });
        notifications.show({ color: 'green', message: SYSTEM_MSG.setPasswordSent });
      }
      onClose();
    } catch {
      // Shown from mutation.error.
    }
  };

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit User' : 'Add User'} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {mutation.error && <FailureAlert title={editing ? MSG.systemUserRoleFailed : MSG.systemUserAddFailed} error={mutation.error} />}
          <TextInput
            label="Email"
            type="email"
            required={!editing}
            value={email}
            readOnly={editing}
            disabled={editing}
            description={editing ? MSG.emailCannotChange : 'They will receive an email to set their password.'}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setEmailError(null);
            }}
            error={emailError ?? fields.email}
            data-autofocus={!editing || undefined}
          />
          <Select
            label="Role"
            data={ROLES}
            value={role}
            onChange={(v) => v && setRole(v as 'user' | 'superAdmin')}
            allowDeselect={false}
            disabled={isSelf}
            description={isSelf ? SYSTEM_MSG.cannotDemoteSelf : undefined}
            error={fields.role}
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!editing && !email.trim()} loading={mutation.isPending}>
              {editing ? 'Save Changes' : 'Add User'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
