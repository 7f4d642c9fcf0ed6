import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailForward, IconPencil, IconPlus, IconTrash, IconUserX, IconUsers } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { MEMBERS_MSG, type TenantMember } from '../../../../../contract/members.ts';
import { LoadError, StatePanel } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { refusalReason } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/dates.ts';
import { useMembers } from '../api/list-members.ts';
import { useResendInvitation } from '../api/resend-invitation.ts';
import { AddUserModal } from './AddUserModal.tsx';
import { ConfirmMemberModal } from './ConfirmMemberModal.tsx';
import { EditUserModal } from './EditUserModal.tsx';

const ROLE_LABEL = { owner: 'Owner', admin: 'Admin', user: 'User' } as const;
const ROLE_COLOR = { owner: 'orange', admin: 'blue', user: 'gray' } as const;

function JoinedCell({ member, labelled = false }: { member: TenantMember; labelled?: boolean }) {
  if (member.status === 'active') return <Text size="sm" c={labelled ? 'dimmed' : undefined}>{labelled ? `Joined ${formatDate(member.joinedAt)}` : formatDate(member.joinedAt)}</Text>;
  const expired = member.invitationExpiresAt !== null && new Date(member.invitationExpiresAt).getTime() < Date.now();
  return (
    <Stack gap={2}>
      <Badge color={expired ? 'red' : 'yellow'} variant="light" w="fit-content">
        {expired ? 'Invitation expired' : 'Pending'}
      </Badge>
      <Text size="xs" c="dimmed">
        Invited {formatDate(member.invitedAt)}
      </Text>
    </Stack>
  );
}

function MemberAvatar({ member: m }: { member: TenantMember }) {
  return (
    <Avatar size={30} radius="xl" color={ROLE_COLOR[m.role]} className="no-shrink">
      {(m.status === 'invited' ? m.email : m.displayName).charAt(0).toUpperCase()}
    </Avatar>
  );
}

function MemberName({ member: m, wrap = false }: { member: TenantMember; wrap?: boolean }) {
  return (
    <>
      <Text size="sm" fw={600} c={m.status === 'invited' ? 'dimmed' : undefined} className={wrap ? 'wrap-anywhere' : 'nowrap'}>
        {m.status === 'invited' ? 'Invited user' : m.displayName}
      </Text>
      {m.isSelf && (
        <Badge size="xs" variant="outline" color="gray" className="no-shrink">
          You
        </Badge>
      )}
    </>
  );
}

const RoleBadge = ({ member: m }: { member: TenantMember }) => (
  <Badge variant={m.role === 'owner' ? 'filled' : 'light'} color={ROLE_COLOR[m.role]} data-testid="member-role" className="no-shrink">
    {ROLE_LABEL[m.role]}
  </Badge>
);

interface MemberActionsProps {
  member: TenantMember;
  onResend: (m: TenantMember) => void;
  resending: boolean;
  onEdit: (m: TenantMember) => void;
  onRemove: (m: TenantMember) => void;
}

/** Resend, Edit, Remove and Revoke, each only where the server allows it. */
function MemberActions({ member: m, onResend, resending, onEdit, onRemove }: MemberActionsProps) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {m.abilities.resend && (
        <Tooltip label="Resend invitation">
          <ActionIcon variant="subtle" color="gray" aria-label={`Resend invitation to ${m.email}`} onClick={() => onResend(m)} loading={resending}>
            <IconMailForward size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {m.abilities.edit && (
        <Tooltip label="Edit user">
          <ActionIcon variant="subtle" color="gray" aria-label={`Edit ${m.email}`} onClick={() => onEdit(m)}>
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {m.abilities.remove && (
        <Tooltip label="Remove user">
          <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.email}`} onClick={() => onRemove(m)}>
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {m.abilities.revoke && (
        <Tooltip label="Revoke invitation">
          <ActionIcon variant="subtle" color="red" aria-label={`Revoke invitation to ${m.email}`} onClick={() => onRemove(m)}>
            <IconUserX size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** The Users tab: members and pending invitations, with Add User, Edit, Remove, Resend and Revoke as the server allows. */
export function UsersPanel({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const members = useMembers(tenantId);
  const resend = useResendInvitation(tenantId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TenantMember | null>(null);
  const [removing, setRemoving] = useState<TenantMember | null>(null);

  const resendTo = async (m: TenantMember) => {
    try {
      const res = await resend.mutateAsync(m.id);
      notifications.show(res.emailSent ? { color: 'green', message: `Invitation sent again to ${m.email}` } : { color: 'yellow', message: MEMBERS_MSG.invitationEmailFailed });
    } catch (e) {
      notifications.show({ color: 'red', message: refusalReason(e) ?? MSG.tenantUserAddFailed });
    }
  };

  let body;
  if (members.isPending) body = <Loading />;
  else if (members.isError) body = <LoadError message={MSG.tenantUsersLoadFailed} onRetry={() => members.refetch()} />;
  else if (members.data.items.length === 0)
    body = (
      <StatePanel icon={<IconUsers />} title="No users yet">
        <Text c="dimmed">Invite your colleagues with Add User.</Text>
      </StatePanel>
    );
  else {
    const actions = (m: TenantMember) => (
      <MemberActions member={m} onResend={resendTo} resending={resend.isPending && resend.variables === m.id} onEdit={setEditing} onRemove={setRemoving} />
    );
    body = (
      <>
        {/* A table where the content area is wide enough for its columns; stacked cards below that (a phone, or a tablet beside the sidebar). */}
        <Paper withBorder radius="md" visibleFrom="md">
          <Table.ScrollContainer minWidth={700}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Joined</Table.Th>
                  <Table.Th ta="right">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.data.items.map((m) => (
                  <Table.Tr key={m.id} data-testid="member-row" data-email={m.email} data-status={m.status}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <MemberAvatar member={m} />
                        <MemberName member={m} />
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{m.email}</Text>
                    </Table.Td>
                    <Table.Td>
                      <RoleBadge member={m} />
                    </Table.Td>
                    <Table.Td>
                      <JoinedCell member={m} />
                    </Table.Td>
                    <Table.Td>{actions(m)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
        <Stack hiddenFrom="md" gap="sm" data-testid="member-cards">
          {members.data.items.map((m) => (
            <Paper key={m.id} withBorder radius="md" p="sm" data-testid="member-card" data-email={m.email} data-status={m.status}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Group gap="sm" wrap="nowrap" align="flex-start" className="min-w-0">
                  <MemberAvatar member={m} />
                  <Stack gap={2} className="min-w-0">
                    <Group gap={6} wrap="wrap">
                      <MemberName member={m} wrap />
                    </Group>
                    <Text size="sm" c="dimmed" className="wrap-anywhere">
                      {m.email}
                    </Text>
                  </Stack>
                </Group>
                <RoleBadge member={m} />
              </Group>
              <Group justify="space-between" align="center" wrap="nowrap" gap="xs" mt="xs" pl={42}>
                <JoinedCell member={m} labelled />
                {actions(m)}
              </Group>
            </Paper>
          ))}
        </Stack>
      </>
    );
  }

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Text c="dimmed" size="sm">
          Owners and admins manage users. Invited users appear as pending until they accept.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          Add User
        </Button>
      </Group>
      {body}
      <AddUserModal tenantId={tenantId} opened={adding} onClose={() => setAdding(false)} />
      {editing && <EditUserModal tenantId={tenantId} member={editing} onClose={() => setEditing(null)} />}
      {removing && <ConfirmMemberModal tenantId={tenantId} tenantName={tenantName} member={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}
