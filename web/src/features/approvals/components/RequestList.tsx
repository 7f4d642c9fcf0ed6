import type { ReactNode } from 'react';
import { Anchor, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconCheck, IconEye, IconX } from '@tabler/icons-react';
import { APPROVAL_LEVEL_LABELS, type ApprovalRequestSummary, type ApprovalView } from '../../../../../contract/approvals.ts';
import { formatDate, formatDateTime, formatTime } from '../../../lib/dates.ts';
import { ApprovalStatusBadge, ApprovalTypeBadge } from './ApprovalBadges.tsx';

export interface RequestListProps {
  view: ApprovalView;
  items: ApprovalRequestSummary[];
  onView: (r: ApprovalRequestSummary) => void;
  onApprove: (r: ApprovalRequestSummary) => void;
  onCancel: (r: ApprovalRequestSummary) => void;
}

interface Column {
  label: string;
  w?: number;
  /** Widest the cell grows (its text truncates or wraps beyond). */
  maw?: number;
  cell: (r: ApprovalRequestSummary) => ReactNode;
}

const levelOf = (r: ApprovalRequestSummary) => (
  <>
    <Text size="sm">{APPROVAL_LEVEL_LABELS[r.currentLevelName]}</Text>
    <Text size="xs" c="dimmed" className="nowrap">
      Level {r.currentLevel + 1} of {r.levels.length}
    </Text>
  </>
);
const requester = (r: ApprovalRequestSummary) => (
  <>
    <Text size="sm" truncate="end" title={r.requestedBy.name}>
      {r.requestedBy.name}
    </Text>
    <Text size="xs" c="dimmed" truncate="end" title={r.requestedBy.email}>
      {r.requestedBy.email}
    </Text>
  </>
);
/** A date over its time of day, so the column stays narrow. */
const time = (value: string | null) => (
  <>
    <Text size="sm" className="nowrap">
      {formatDate(value)}
    </Text>
    <Text size="xs" c="dimmed" className="nowrap">
      {formatTime(value)}
    </Text>
  </>
);

const TYPE: Column = { label: 'Type', w: 90, cell: (r) => <ApprovalTypeBadge type={r.type} /> };
const REQUESTED_BY: Column = { label: 'Requested By', maw: 170, cell: requester };
const STATUS: Column = { label: 'Status', w: 110, cell: (r) => <ApprovalStatusBadge status={r.status} /> };
const CREATED: Column = { label: 'Created', w: 120, cell: (r) => time(r.createdAt) };
const UPDATED: Column = { label: 'Updated', w: 120, cell: (r) => time(r.updatedAt) };

/** The columns of each tab (spec section 2), Title first and Actions last. */
const COLUMNS: Record<ApprovalView, Column[]> = {
  pending: [TYPE, REQUESTED_BY, CREATED, { label: 'Level', w: 110, cell: levelOf }, { label: 'Expires', w: 120, cell: (r) => time(r.expiresAt) }],
  mine: [TYPE, STATUS, CREATED, { label: 'Current Level', w: 110, cell: levelOf }, UPDATED],
  all: [TYPE, REQUESTED_BY, STATUS, CREATED, { label: 'Current Level', w: 110, cell: levelOf }, UPDATED],
};

function Actions({ view, r, onView, onApprove, onCancel }: { r: ApprovalRequestSummary } & Omit<RequestListProps, 'items'>) {
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <Button size="compact-sm" variant="default" leftSection={<IconEye size={14} />} onClick={() => onView(r)} aria-label={`View ${r.title}`}>
        View
      </Button>
      {view === 'pending' && r.can.approve && (
        <Button size="compact-sm" color="green" leftSection={<IconCheck size={14} />} onClick={() => onApprove(r)} aria-label={`Approve ${r.title}`}>
          Approve
        </Button>
      )}
      {view === 'mine' && r.status === 'pending' && r.can.cancel && (
        <Button size="compact-sm" variant="light" color="red" leftSection={<IconX size={14} />} onClick={() => onCancel(r)} aria-label={`Cancel ${r.title}`}>
          Cancel
        </Button>
      )}
    </Group>
  );
}

/** One tab's requests: a table from the small breakpoint up (scrolling sideways when narrow), cards on a phone. */
export function RequestList(props: RequestListProps) {
  const { view, items, onView } = props;
  const columns = COLUMNS[view];
  const title = (r: ApprovalRequestSummary) => (
    <Anchor component="button" type="button" fw={600} size="sm" ta="left" className="wrap-anywhere" onClick={() => onView(r)} data-testid="approval-title">
      {r.title}
    </Anchor>
  );
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={view === 'all' ? 960 : 860}>
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing={8} data-testid={`approvals-table-${view}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Title</Table.Th>
                {columns.map((c) => (
                  <Table.Th key={c.label} w={c.w} className="nowrap">
                    {c.label}
                  </Table.Th>
                ))}
                <Table.Th ta="right">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.id} data-testid="approval-row" data-request-id={r.id}>
                  <Table.Td miw={140} maw={320}>
                    {title(r)}
                  </Table.Td>
                  {columns.map((c) => (
                    <Table.Td key={c.label} maw={c.maw}>
                      {c.cell(r)}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Actions r={r} {...props} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack hiddenFrom="sm" gap="sm" data-testid={`approvals-cards-${view}`}>
        {items.map((r) => (
          <Paper key={r.id} withBorder p="sm" radius="md" data-testid="approval-card" data-request-id={r.id}>
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Box className="min-w-0">{title(r)}</Box>
              <Group gap={4} wrap="nowrap" className="no-shrink">
                <ApprovalTypeBadge type={r.type} />
                {view !== 'pending' && <ApprovalStatusBadge status={r.status} />}
              </Group>
            </Group>
            <Stack gap={2} mt={6}>
              {view !== 'mine' && (
                <Text size="xs" c="dimmed" className="wrap-anywhere">
                  By {r.requestedBy.name} · {r.requestedBy.email}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {APPROVAL_LEVEL_LABELS[r.currentLevelName]} level ({r.currentLevel + 1} of {r.levels.length})
                {view === 'pending' ? ` · Expires ${formatDateTime(r.expiresAt)}` : ` · Updated ${formatDateTime(r.updatedAt)}`}
              </Text>
              <Text size="xs" c="dimmed">
                Created {formatDateTime(r.createdAt)}
              </Text>
            </Stack>
            <Group justify="flex-end" mt="xs">
              <Actions r={r} {...props} />
            </Group>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
