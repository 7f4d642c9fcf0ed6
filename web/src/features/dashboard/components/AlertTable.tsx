import { Anchor, Badge, Checkbox, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Alert } from '../../../../../contract/alerts.ts';
import { PAGING_MSG } from '../../../../../contract/paging.ts';
import { PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { HoldBadges } from './HoldBadges.tsx';
import { AlertAge, clientHref } from './AlertCardParts.tsx';
import { PagedNobodyBadge } from './PagedNobody.tsx';

interface AlertTableProps {
  alerts: Alert[];
  now: number;
  onOpen: (a: Alert) => void;
  selected: ReadonlySet<string>;
  onSelect: (a: Alert, selected: boolean) => void;
  onSelectAll: (selected: boolean) => void;
  activeId: string | null;
}

/** The compact view for a NOC screen: one line per alert. A click anywhere on a row (but its controls) opens it. */
export function AlertTable({ alerts, now, onOpen, selected, onSelect, onSelectAll, activeId }: AlertTableProps) {
  const all = alerts.length > 0 && alerts.every((a) => selected.has(a.id));
  const some = alerts.some((a) => selected.has(a.id));
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table highlightOnHover verticalSpacing={6} data-testid="alert-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>
              <Checkbox aria-label="Select all alerts on this page" checked={all} indeterminate={some && !all} onChange={(e) => onSelectAll(e.currentTarget.checked)} />
            </Table.Th>
            <Table.Th w={112}>Priority</Table.Th>
            <Table.Th w={150}>Status</Table.Th>
            <Table.Th>Title</Table.Th>
            <Table.Th>Client</Table.Th>
            <Table.Th>Assignee</Table.Th>
            <Table.Th w={90}>Age</Table.Th>
            <Table.Th w={60} ta="right">
              Count
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {alerts.map((a) => (
            <Table.Tr
              key={a.id}
              className="alert-row"
              data-testid="alert-row"
              data-alert-id={a.id}
              data-active={a.id === activeId || undefined}
              onClick={(e) => {
                if (!(e.target as HTMLElement).closest('a, button, input, label')) onOpen(a);
              }}
            >
              <Table.Td>
                <Checkbox aria-label={`Select ${a.title}`} checked={selected.has(a.id)} onChange={(e) => onSelect(a, e.currentTarget.checked)} data-testid="alert-select" />
              </Table.Td>
              <Table.Td>
                <PriorityBadge priority={a.priority} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {a.overdueAt ? (
                    <Badge color="red" variant="filled" size="sm" leftSection={<IconClockExclamation size={12} />}>
                      {PAGING_MSG.overdue}
                    </Badge>
                  ) : (
                    <StatusBadge status={a.status} />
                  )}
                  {a.pagedNobody && <PagedNobodyBadge mark={a.pagedNobody} />}
                  <HoldBadges alert={a} compact />
                </Group>
              </Table.Td>
              <Table.Td maw={420}>
                <UnstyledButton onClick={() => onOpen(a)} data-testid="alert-open">
                  <Text size="sm" fw={600} truncate maw={400}>
                    {a.title}
                  </Text>
                </UnstyledButton>
              </Table.Td>
              <Table.Td>
                {a.clientId && a.clientName ? (
                  <Anchor component={Link} to={clientHref(a.clientId)} size="sm">
                    {a.clientName}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    –
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={a.assigneeName ? undefined : 'dimmed'} truncate maw={180}>
                  {a.assigneeName ?? 'Unassigned'}
                </Text>
              </Table.Td>
              <Table.Td>
                <AlertAge createdAt={a.createdAt} now={now} />
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{a.occurrences}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
