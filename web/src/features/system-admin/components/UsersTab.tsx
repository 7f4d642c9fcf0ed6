import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash, IconUsers } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { SYSTEM_MSG, userDeleteConfirm, type AdminUser } from '../../../../../contract/system.ts';
import { useSignedInMe } from '../../../lib/session.tsx';
import { StatePanel } from '../../../components/AccessState.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useUsers } from '../api/list-users.ts';
import { AdminDeleteModal } from './AdminDeleteModal.tsx';
import { AdminList, AdminListToolbar, useListSearch } from './AdminList.tsx';
import { UserFormModal } from './UserFormModal.tsx';
import { ADMIN_PAGE_SIZE } from './ListControls.tsx';
import { useDeleteConfirmation } from './use-delete-confirmation.ts';

const RoleBadge = ({ u }: { u: AdminUser }) => (
  <Badge variant={u.role === 'superAdmin' ? 'filled' : 'light'} color={u.role === 'superAdmin' ? 'orange' : 'gray'}>
    {u.role === 'superAdmin' ? 'Super Admin' : 'User'}
  </Badge>
);

function UserActions({ user, self, onEdit, onDelete }: { user: AdminUser; self: boolean; onEdit: () => void; onDelete: () => void }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit role">
        <ActionIcon variant="subtle" color="gray" aria-label={`Edit ${user.email}`} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={self ? SYSTEM_MSG.cannotDeleteSelf : 'Delete'}>
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${user.email}`} disabled={self} onClick={onDelete}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function NameCell({ u, self }: { u: AdminUser; self: boolean }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar size={30} radius="xl" color={u.role === 'superAdmin' ? 'orange' : 'gray'}>
        {u.displayName.charAt(0).toUpperCase()}
      </Avatar>
      <Text size="sm" fw={600} truncate>
        {u.displayName}
      </Text>
      {self && (
        <Badge size="xs" variant="outline" color="gray" className="no-shrink">
          You
        </Badge>
      )}
    </Group>
  );
}

export function UsersTab() {
  const me = useSignedInMe();
  const { search, debounced, page, setPage, onSearch } = useListSearch();
  const users = useUsers({ page, pageSize: ADMIN_PAGE_SIZE, search: debounced || undefined });
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const remove = useDeleteUser();
  const deletion = useDeleteConfirmation(remove, (u: AdminUser) => `${u.email} was deleted.`);
  const isSelf = (u: AdminUser) => u.id === me.user.id;
  const actions = (u: AdminUser) => <UserActions user={u} self={isSelf(u)} onEdit={() => setEditing(u)} onDelete={() => deletion.ask(u)} />;

  return (
    <Stack>
      <AdminListToolbar searchLabel="Search users" searchPlaceholder="Search by name or email" search={search} onSearch={onSearch} addLabel="Add User" onAdd={() => setEditing('new')} />
      <AdminList
        query={users}
        loadFailed={MSG.systemUsersLoadFailed}
        empty={<StatePanel icon={<IconUsers />} title={debounced ? 'No users match your search' : 'No users yet'} />}
        noun={['user', 'users']}
        page={page}
        onPage={setPage}
        rowTestId="user-row"
        columns={['Name', 'Email', 'Role', 'Created', 'Actions']}
        minWidth={680}
        card={(u) => (
          <>
            <Group justify="space-between" wrap="nowrap">
              <div className="min-w-0">
                <NameCell u={u} self={isSelf(u)} />
              </div>
              <RoleBadge u={u} />
            </Group>
            <Text size="sm" mt="xs" truncate>
              {u.email}
            </Text>
            <Group justify="space-between" mt="xs">
              <Text size="xs" c="dimmed">
                {u.hasPassword ? `Created ${formatDate(u.createdAt)}` : 'Password not set yet'}
              </Text>
              {actions(u)}
            </Group>
          </>
        )}
        cells={(u) => (
          <>
            <Table.Td>
              <NameCell u={u} self={isSelf(u)} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{u.email}</Text>
              {!u.hasPassword && (
                <Text size="xs" c="dimmed">
                  Password not set yet
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <RoleBadge u={u} />
            </Table.Td>
            <Table.Td>{formatDate(u.createdAt)}</Table.Td>
            <Table.Td>{actions(u)}</Table.Td>
          </>
        )}
      />
      {editing && <UserFormModal user={editing === 'new' ? null : editing} isSelf={editing !== 'new' && isSelf(editing)} onClose={() => setEditing(null)} />}
      <AdminDeleteModal confirmation={deletion} remove={remove} title="Delete User" failureTitle={MSG.systemUserDeleteFailed} question={(u) => userDeleteConfirm(u.email)} />
    </Stack>
  );
}
