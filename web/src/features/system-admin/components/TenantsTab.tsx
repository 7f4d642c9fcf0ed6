import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconBuildingSkyscraper, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { tenantDeleteConfirm, type AdminTenant } from '../../../../../contract/system.ts';
import { LoadError, StatePanel } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useDeleteTenant } from '../api/delete-tenant.ts';
import { useAllPlans } from '../api/list-pricing-plans.ts';
import { useTenants } from '../api/list-tenants.ts';
import { TenantFormModal } from './TenantFormModal.tsx';
import { ADMIN_PAGE_SIZE, ListFooter, ListSearch } from './ListControls.tsx';
import { useDeleteConfirmation } from './use-delete-confirmation.ts';

function TenantActions({ tenant, canEdit, onEdit, onDelete }: { tenant: AdminTenant; canEdit: boolean; onEdit: () => void; onDelete: () => void }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon variant="subtle" color="gray" aria-label={`Edit ${tenant.name}`} onClick={onEdit} disabled={!canEdit}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete">
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${tenant.name}`} onClick={onDelete}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

const PlanBadge = ({ t }: { t: AdminTenant }) => (
  <Badge variant="light" color={t.planName ? 'orange' : 'gray'}>
    {t.planName ?? t.plan}
  </Badge>
);

export function TenantsTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const tenants = useTenants({ page, pageSize: ADMIN_PAGE_SIZE, search: debounced || undefined });
  const plans = useAllPlans();
  const [editing, setEditing] = useState<AdminTenant | 'new' | null>(null);
  const remove = useDeleteTenant();
  const { deleting, ask: askDelete, confirm: confirmDelete, close: closeDelete } = useDeleteConfirmation(remove, (t: AdminTenant) => `${t.name} was deleted.`);
  // A phone gets one card per tenant instead of a table that scrolls sideways.
  const phone = useMediaQuery('(max-width: 48em)');

  let body;
  if (tenants.isPending) body = <Loading />;
  else if (tenants.isError) body = <LoadError message={MSG.tenantsLoadFailed} onRetry={() => tenants.refetch()} />;
  else if (tenants.data.items.length === 0)
    body = (
      <StatePanel icon={<IconBuildingSkyscraper />} title={debounced ? 'No tenants match your search' : 'No tenants yet'}>
        {!debounced && <Text c="dimmed">Organizations appear here when they register or when you add one.</Text>}
      </StatePanel>
    );
  else {
    const { items, total } = tenants.data;
    const list = phone ? (
      <Stack gap="sm">
        {items.map((t) => (
          <Paper key={t.id} withBorder radius="md" p="md" data-testid="tenant-row">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div className="min-w-0">
                <Text fw={600} truncate>
                  {t.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {t.ownerEmail ?? 'No owner'}
                </Text>
              </div>
              <PlanBadge t={t} />
            </Group>
            <Group gap="lg" mt="sm">
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  Users{' '}
                </Text>
                <span data-testid="tenant-users">
                  {t.userCount} / {t.maxUsers}
                </span>
              </Text>
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  Clients{' '}
                </Text>
                <span data-testid="tenant-clients">
                  {t.clientCount} / {t.maxClients}
                </span>
              </Text>
            </Group>
            <Group justify="space-between" mt="xs">
              <Text size="xs" c="dimmed">
                Created {formatDate(t.createdAt)}
              </Text>
              <TenantActions tenant={t} canEdit={!!plans.data} onEdit={() => setEditing(t)} onDelete={() => askDelete(t)} />
            </Group>
          </Paper>
        ))}
      </Stack>
    ) : (
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Users</Table.Th>
                <Table.Th>Clients</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th ta="right">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((t) => (
                <Table.Tr key={t.id} data-testid="tenant-row">
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {t.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t.ownerEmail ?? 'No owner'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <PlanBadge t={t} />
                  </Table.Td>
                  <Table.Td data-testid="tenant-users">
                    {t.userCount} / {t.maxUsers}
                  </Table.Td>
                  <Table.Td data-testid="tenant-clients">
                    {t.clientCount} / {t.maxClients}
                  </Table.Td>
                  <Table.Td>{formatDate(t.createdAt)}</Table.Td>
                  <Table.Td>
                    <TenantActions tenant={t} canEdit={!!plans.data} onEdit={() => setEditing(t)} onDelete={() => askDelete(t)} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );
    body = (
      <Stack>
        {list}
        <ListFooter total={total} noun={['tenant', 'tenants']} page={page} onPage={setPage} />
      </Stack>
    );
  }

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <ListSearch
          label="Search tenants"
          placeholder="Search tenants"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} disabled={!plans.data}>
          Add Tenant
        </Button>
      </Group>
      {body}
      {editing && plans.data && <TenantFormModal tenant={editing === 'new' ? null : editing} plans={plans.data} onClose={() => setEditing(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        title="Delete Tenant"
        confirmLabel="Delete"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={closeDelete}
        failure={{ title: MSG.tenantDeleteFailed, error: remove.error }}
      >
        <Text>{deleting ? tenantDeleteConfirm(deleting.name) : ''}</Text>
      </ConfirmModal>
    </Stack>
  );
}
