import { ActionIcon, Anchor, Badge, Box, Group, Paper, Stack, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconEdit, IconSelector, IconTrash } from '@tabler/icons-react';
import type { Client, ClientSort } from '../../../../../contract/clients.ts';
import { formatDate } from '../../../lib/dates.ts';
import { ClientStatusBadge } from './ClientStatusBadge.tsx';

export interface ClientListProps {
  items: Client[];
  sort: ClientSort;
  order: 'asc' | 'desc';
  onSort: (sort: ClientSort) => void;
  onOpen: (client: Client) => void;
  onEdit: (client: Client) => void;
  onDelete: (client: Client) => void;
}

const MAX_TAGS_SHOWN = 3;

function Tags({ tags }: { tags: string[] }) {
  if (!tags.length) return null;
  return (
    <Group gap={4}>
      {tags.slice(0, MAX_TAGS_SHOWN).map((t) => (
        <Badge key={t} variant="outline" size="sm" tt="none" maw={140}>
          {t}
        </Badge>
      ))}
      {tags.length > MAX_TAGS_SHOWN && (
        <Text size="xs" c="dimmed">
          +{tags.length - MAX_TAGS_SHOWN}
        </Text>
      )}
    </Group>
  );
}

function RowActions({ client, onEdit, onDelete }: { client: Client; onEdit: (c: Client) => void; onDelete: (c: Client) => void }) {
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label="Edit client">
        <ActionIcon variant="subtle" aria-label={`Edit ${client.name}`} onClick={() => onEdit(client)}>
          <IconEdit size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete client">
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${client.name}`} onClick={() => onDelete(client)}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function SortHeader({ label, field, sort, order, onSort, w }: { label: string; field: ClientSort; sort: ClientSort; order: 'asc' | 'desc'; onSort: (s: ClientSort) => void; w?: number }) {
  const active = sort === field;
  const Icon = active ? (order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th w={w} aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(field)} data-testid={`sort-${field}`}>
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} stroke={1.8} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The client list: a table with sortable columns from the small breakpoint up, cards on a phone. */
export function ClientList({ items, sort, order, onSort, onOpen, onEdit, onDelete }: ClientListProps) {
  const name = (c: Client) => (
    <Anchor component="button" type="button" fw={600} onClick={() => onOpen(c)} ta="left" className="wrap-anywhere" data-testid="client-name">
      {c.name}
    </Anchor>
  );
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={760}>
          <Table highlightOnHover verticalSpacing="sm" data-testid="clients-table">
            <Table.Thead>
              <Table.Tr>
                <SortHeader label="Name" field="name" sort={sort} order={order} onSort={onSort} />
                <Table.Th>Contact</Table.Th>
                <SortHeader label="Status" field="status" sort={sort} order={order} onSort={onSort} w={120} />
                <Table.Th>Tags</Table.Th>
                <SortHeader label="Created" field="createdAt" sort={sort} order={order} onSort={onSort} w={140} />
                <Table.Th w={90}>
                  <Text fw={700} size="sm" ta="right">
                    Actions
                  </Text>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <Table.Tr key={c.id} data-testid="client-row">
                  <Table.Td maw={260}>{name(c)}</Table.Td>
                  <Table.Td maw={240}>
                    <Text size="sm" truncate="end">
                      {c.contactName}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {c.contactEmail}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <ClientStatusBadge status={c.status} />
                  </Table.Td>
                  <Table.Td>
                    <Tags tags={c.tags} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(c.createdAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <RowActions client={c} onEdit={onEdit} onDelete={onDelete} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack hiddenFrom="sm" gap="sm" data-testid="clients-cards">
        {items.map((c) => (
          <Paper key={c.id} withBorder p="sm" radius="md" data-testid="client-card">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap={2} className="min-w-0">
                {name(c)}
                {(c.contactName || c.contactEmail) && (
                  <Text size="sm" c="dimmed" className="wrap-anywhere">
                    {[c.contactName, c.contactEmail].filter(Boolean).join(' · ')}
                  </Text>
                )}
              </Stack>
              <Box className="no-shrink">
                <ClientStatusBadge status={c.status} />
              </Box>
            </Group>
            <Group justify="space-between" align="center" mt="xs" wrap="nowrap" gap="xs">
              <Stack gap={4} className="min-w-0">
                <Tags tags={c.tags} />
                <Text size="xs" c="dimmed">
                  Created {formatDate(c.createdAt)}
                </Text>
              </Stack>
              <RowActions client={c} onEdit={onEdit} onDelete={onDelete} />
            </Group>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
