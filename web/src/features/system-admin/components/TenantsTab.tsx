import { useState } from 'react';
import { ActionIcon, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconBuildingSkyscraper, IconPencil, IconTrash } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { tenantDeleteConfirm, type AdminTenant } from '../../../../../contract/system.ts';
import { StatePanel } from '../../../components/AccessState.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useDeleteTenant } from '../api/delete-tenant.ts';
import { useAllPlans } from '../api/list-pricing-plans.ts';
import { useTenants } from '../api/list-tenants.ts';
import { AdminDeleteModal } from './AdminDeleteModal.tsx';
import { AdminList, AdminListToolbar, useListSearch } from './AdminList.tsx';
import { TenantFormModal } from './TenantFormModal.tsx';
import { ADMIN_PAGE_SIZE } from './ListControls.tsx';
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
  const { search, debounced, page, setPage, onSearch } = useListSearch();
  const tenants = useTenants({ page, pageSize: ADMIN_PAGE_SIZE, search: debounced || undefined });
  const plans = useAllPlans();
  const [editing, setEditing] = useState<AdminTenant | 'new' | null>(null);
  const remove = useDeleteTenant();
  const deletion = useDeleteConfirmation(remove, (t: AdminTenant) => `${t.name} was deleted.`);
  const actions = (t: AdminTenant) => <TenantActions tenant={t} canEdit={!!plans.data} onEdit={() => setEditing(t)} onDelete={() => deletion.ask(t)} />;

  return (
    <Stack>
      <AdminListToolbar searchLabel="Search tenants" searchPlaceholder="Search tenants" search={search} onSearch={onSearch} addLabel="Add Tenant" onAdd={() => setEditing('new')} addDisabled={!plans.data} />
      <AdminList
        query={tenants}
        loadFailed={MSG.tenantsLoadFailed}
        empty={
          <StatePanel icon={<IconBuildingSkyscraper />} title={debounced ? 'No tenants match your search' : 'No tenants yet'}>
            {!debounced && <Text c="dimmed">Organizations appear here when they register or when you add one.</Text>}
          </StatePanel>
        }
        noun={['tenant', 'tenants']}
        page={page}
        onPage={setPage}
        rowTestId="tenant-row"
        columns={['Name', 'Plan', 'Users', 'Clients', 'Created', 'Actions']}
        minWidth={720}
        card={(t) => (
          <>
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
              {actions(t)}
            </Group>
          </>
        )}
        cells={(t) => (
          <>
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
            <Table.Td>{actions(t)}</Table.Td>
          </>
        )}
      />
      {editing && plans.data && <TenantFormModal tenant={editing === 'new' ? null : editing} plans={plans.data} onClose={() => setEditing(null)} />}
      <AdminDeleteModal confirmation={deletion} remove={remove} title="Delete Tenant" failureTitle={MSG.tenantDeleteFailed} question={(t) => tenantDeleteConfirm(t.name)} />
    </Stack>
  );
}
