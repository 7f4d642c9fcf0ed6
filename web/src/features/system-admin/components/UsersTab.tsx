import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { SYSTEM_MSG, userDeleteConfirm, type AdminUser } from '../../../../../contract/system.ts';
import { useSignedInMe } from '../../../lib/session.tsx';
import { LoadError, StatePanel } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useUsers } from '../api/list-users.ts';
import { UserFormModal } from './UserFormModal.tsx';
import { ADMIN_PAGE_SIZE, ListFooter, ListSearch } from './ListControls.tsx';
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
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const users = useUsers({ page, pageSize: ADMIN_PAGE_SIZE, search: debounced || undefined });
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const remove = useDeleteUser();
  const { deleting, ask: askDelete, confirm: confirmDelete, close: closeDelete } = useDeleteConfirmation(remove, (u: AdminUser) => `${u.email} was deleted.`);
  // A phone gets one card per user instead of a table that scrolls sideways.
  const phone = useMediaQuery('(max-width: 48em)');

  let body;
  if (users.isPending) body = <Loading />;
  else if (users.isError) body = <LoadError message={MSG.systemUsersLoadFailed} onRetry={() => users.refetch()} />;
  else if (users.data.items.length === 0) body = <StatePanel icon={<IconUsers />} title={debounced ? 'No users match your search' : 'No users yet'} />;
  else {
    const { items, total } = users.data;
    const list = phone ? (
      <Stack gap="sm">
        {items.map((u) => {
          const self = u.id === me.user.id;
          return (
            <Paper key={u.id} withBorder radius="md" p="md" data-testid="user-row">
              <Group justify="space-between" wrap="nowrap">
                <div className="min-w-0">
                  <NameCell u={u} self={self} />
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
                <UserActions user={u} self={self} onEdit={() => setEditing(u)} onDelete={() => askDelete(u)} />
              </Group>
            </Paper>
          );
        })}
      </Stack>
    ) : (
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={680}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th ta="right">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((u) => {
                const self = u.id === me.user.id;
                return (
                  <Table.Tr key={u.id} data-testid="user-row">
                    <Table.Td>
                      <NameCell u={u} self={self} />
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
                    <Table.Td>
                      <UserActions user={u} self={self} onEdit={() => setEditing(u)} onDelete={() => askDelete(u)} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );
    body = (
      <Stack>
        {list}
        <ListFooter total={total} noun={['user', 'users']} page={page} onPage={setPage} />
      </Stack>
    );
  }

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <ListSearch
          label="Search users"
          placeholder="Search by name or email"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Add User
        </Button>
      </Group>
      {body}
      {editing && <UserFormModal user={editing === 'new' ? null : editing} isSelf={editing !== 'new' && editing.id === me.user.id} onClose={() => setEditing(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        title="Delete User"
        confirmLabel="Delete"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={closeDelete}
        failure={{ title: MSG.systemUserDeleteFailed, error: remove.error }}
      >
        <Text>{deleting ? userDeleteConfirm(deleting.email) : ''}</Text>
      </ConfirmModal>
    </Stack>
  );
}
