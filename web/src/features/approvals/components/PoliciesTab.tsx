import { useState } from 'react';
import { ActionIcon, Box, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconSitemap, IconTrash } from '@tabler/icons-react';
import { APPROVAL_LEVEL_LABELS, APPROVAL_MSG, APPROVAL_TYPE_LABELS, type ApprovalPolicy } from '../../../../../contract/approvals.ts';
import { LoadError, NoPermission, StatePanel } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/dates.ts';
import { memberLabel, useMemberChoices } from '../../../lib/member-choices.ts';
import { useApprovalPolicies } from '../api/approval-policies.ts';
import { PolicyStatusBadge } from './ApprovalBadges.tsx';
import { PolicyDeleteModal } from './PolicyDeleteModal.tsx';
import { PolicyFormModal } from './PolicyFormModal.tsx';

const levelNames = (p: ApprovalPolicy) => p.levels.map((l) => APPROVAL_LEVEL_LABELS[l.level]).join(', ');

function RowActions({ policy, onEdit, onDelete }: { policy: ApprovalPolicy; onEdit: () => void; onDelete: () => void }) {
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label="Edit policy">
        <ActionIcon variant="subtle" aria-label={`Edit ${policy.name}`} onClick={onEdit}>
          <IconEdit size={18} />
        </ActionIcon>
      </Tooltip>
      {/* An inactive policy is already deleted (soft delete); Edit turns it back on. */}
      <Tooltip label={policy.active ? 'Delete policy' : 'Already inactive: edit it to turn it back on'}>
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${policy.name}`} onClick={onDelete} disabled={!policy.active}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Tab Approval Policies (owners and admins): the tenant's policies, New Policy, edit and (soft) delete. */
export function PoliciesTab({ tenantId }: { tenantId: string }) {
  const policies = useApprovalPolicies(tenantId);
  const members = useMemberChoices(tenantId);
  const [form, setForm] = useState<{ policy: ApprovalPolicy | null } | null>(null);
  const [deleting, setDeleting] = useState<ApprovalPolicy | null>(null);

  if (policies.isPending || members.isPending) return <Loading />;
  if (policies.isError && policies.error instanceof ApiError && (policies.error.status === 403 || policies.error.status === 404)) return <NoPermission />;
  if (policies.isError || members.isError)
    return (
      <LoadError
        message={APPROVAL_MSG.loadPoliciesFailed}
        onRetry={() => {
          for (const q of [policies, members]) if (q.isError) void q.refetch();
        }}
      />
    );

  const memberChoices = members.data.map((m) => ({ value: m.id, label: memberLabel(m) }));
  const newPolicy = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ policy: null })}>
      New Policy
    </Button>
  );

  return (
    <Stack gap="md" data-testid="approval-policies">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          A request follows the active policy of its type: its levels decide in order, and any one approver of a level decides it.
        </Text>
        {newPolicy}
      </Group>

      {policies.data.length === 0 ? (
        <StatePanel icon={<IconSitemap />} title={APPROVAL_MSG.noPolicies} />
      ) : (
        <>
          <Box visibleFrom="sm">
            <Table.ScrollContainer minWidth={760}>
              <Table highlightOnHover verticalSpacing="sm" data-testid="approval-policies-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th w={100}>Type</Table.Th>
                    <Table.Th w={100}>Status</Table.Th>
                    <Table.Th w={90}>Levels</Table.Th>
                    <Table.Th w={130}>Created</Table.Th>
                    <Table.Th w={130}>Updated</Table.Th>
                    <Table.Th w={90} ta="right">
                      Actions
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {policies.data.map((p) => (
                    <Table.Tr key={p.id} data-testid="approval-policy-row" data-policy-id={p.id}>
                      <Table.Td maw={320}>
                        <Text size="sm" fw={600} className="wrap-anywhere" data-testid="approval-policy-name">
                          {p.name}
                        </Text>
                        <Text size="xs" c="dimmed" lineClamp={2} className="wrap-anywhere">
                          {p.description}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{APPROVAL_TYPE_LABELS[p.type]}</Text>
                      </Table.Td>
                      <Table.Td>
                        <PolicyStatusBadge active={p.active} />
                      </Table.Td>
                      <Table.Td>
                        <Tooltip label={levelNames(p)}>
                          <Text size="sm" data-testid="approval-policy-levels-count">
                            {p.levels.length}
                          </Text>
                        </Tooltip>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDate(p.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDate(p.updatedAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <RowActions policy={p} onEdit={() => setForm({ policy: p })} onDelete={() => setDeleting(p)} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Box>
          <Stack hiddenFrom="sm" gap="sm">
            {policies.data.map((p) => (
              <Paper key={p.id} withBorder p="sm" radius="md" data-testid="approval-policy-card">
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                  <Text size="sm" fw={600} className="wrap-anywhere">
                    {p.name}
                  </Text>
                  <PolicyStatusBadge active={p.active} />
                </Group>
                <Text size="xs" c="dimmed" mt={4}>
                  {APPROVAL_TYPE_LABELS[p.type]} · {p.levels.length} {p.levels.length === 1 ? 'level' : 'levels'} ({levelNames(p)})
                </Text>
                <Group justify="space-between" align="center" mt="xs" wrap="nowrap" gap="xs">
                  <Text size="xs" c="dimmed">
                    Created {formatDate(p.createdAt)} · Updated {formatDate(p.updatedAt)}
                  </Text>
                  <RowActions policy={p} onEdit={() => setForm({ policy: p })} onDelete={() => setDeleting(p)} />
                </Group>
              </Paper>
            ))}
          </Stack>
        </>
      )}

      <PolicyFormModal tenantId={tenantId} policy={form?.policy ?? null} opened={!!form} members={memberChoices} onClose={() => setForm(null)} />
      <PolicyDeleteModal tenantId={tenantId} policy={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
