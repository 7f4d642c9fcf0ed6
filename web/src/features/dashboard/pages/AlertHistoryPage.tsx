import { useState } from 'react';
import { Anchor, Box, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft, IconSearch } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import {
  ALERT_MSG,
  ALERT_PRIORITIES,
  HISTORY_PAGE_SIZE,
  HISTORY_STATUSES,
  PRIORITY_LABELS,
  STATUS_LABELS,
  type Alert,
} from '../../../../../contract/alerts.ts';
import { NoTenant, LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useAlertHistory } from '../api/list-alert-history.ts';
import { useAlertStream } from '../api/alert-stream.ts';
import { AlertCard } from '../components/AlertCard.tsx';
import { LazyAlertDetailModal } from '../components/LazyAlertDetailModal.tsx';
import { PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { Pager } from '../../../components/Pager.tsx';

const STATUS_OPTIONS = [{ value: 'all', label: 'All' }, ...HISTORY_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];
const PRIORITY_OPTIONS = [{ value: 'all', label: 'All' }, ...ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))];

/** Resolved and closed alerts: searchable, filterable, paginated, and each one opens in the detail modal. */
export function AlertHistoryPage() {
  const { tenant } = useCurrentTenant();
  if (!tenant) return <NoTenant />;
  return <History tenantId={tenant.id} />;
}

function History({ tenantId }: { tenantId: string }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  const [status, setStatus] = useState('all');
  const [priority, setPriority] = useState('all');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  // The client is in the address: a client's details link to its history.
  const [params, setParams] = useSearchParams();
  const clientId = params.get('clientId') || undefined;
  const clients = useClientChoices(tenantId);
  const setClient = (id: string | null) => {
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (id) next.set('clientId', id);
      else next.delete('clientId');
      return next;
    }, { replace: true });
    setPage(1);
  };
  useAlertStream(tenantId);
  const history = useAlertHistory(tenantId, { q, status, priority, page, clientId });
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / HISTORY_PAGE_SIZE)) : 1;
  const onOpen = (a: Alert) => setOpen(a.id);

  return (
    <>
      <PageHeader
        title="Alert History"
        description="Resolved and closed alerts"
        actions={
          <Button component={Link} to="/app/dashboard" variant="default" leftSection={<IconArrowLeft size={16} />}>
            Active alerts
          </Button>
        }
      />
      <Paper withBorder p="md" radius="md">
        <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Title, source, description or key"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            className="grow" miw={220}
            data-testid="history-search"
          />
          <Select label="Status" data={STATUS_OPTIONS} value={status} onChange={(v) => { setStatus(v ?? 'all'); setPage(1); }} allowDeselect={false} w={150} />
          <Select label="Priority" data={PRIORITY_OPTIONS} value={priority} onChange={(v) => { setPriority(v ?? 'all'); setPage(1); }} allowDeselect={false} w={150} />
          <Select
            label="Client"
            placeholder="All clients"
            data={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={clientId ?? null}
            onChange={setClient}
            searchable
            clearable
            w={200}
            data-testid="history-client"
          />
        </Group>

        {history.isPending ? (
          <Loading />
        ) : history.isError && !history.data ? (
          <LoadError message={ALERT_MSG.alertsLoadFailed} onRetry={() => void history.refetch()} />
        ) : history.data.items.length === 0 ? (
          <Text ta="center" c="dimmed" py="xl" data-testid="history-empty">
            {ALERT_MSG.noHistory}
          </Text>
        ) : (
          <Box className={history.isPlaceholderData ? 'stale' : undefined}>
            <Box visibleFrom="sm">
              <Table highlightOnHover verticalSpacing="sm" data-testid="history-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Title</Table.Th>
                    <Table.Th w={100}>Priority</Table.Th>
                    <Table.Th w={120}>Status</Table.Th>
                    <Table.Th>Client</Table.Th>
                    <Table.Th w={190}>Resolved</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {history.data.items.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td className="wrap-anywhere">
                        <Anchor component="button" type="button" fw={600} ta="left" onClick={() => onOpen(a)}>
                          {a.title}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {a.source}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <PriorityBadge priority={a.priority} />
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={a.status} />
                      </Table.Td>
                      <Table.Td>{a.clientName ?? <Text span c="dimmed">No client</Text>}</Table.Td>
                      <Table.Td>{formatDateTime(a.resolvedAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Box>
            <Stack gap="xs" hiddenFrom="sm">
              {history.data.items.map((a) => (
                <AlertCard key={a.id} alert={a} onOpen={onOpen} />
              ))}
            </Stack>
          </Box>
        )}
        {history.data && history.data.total > HISTORY_PAGE_SIZE && (
          <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
            <Text size="sm" c="dimmed">
              {history.data.totalCapped ? `More than ${history.data.total.toLocaleString()} alerts: narrow the search to see older ones` : `${history.data.total} alerts`}
            </Text>
            <Pager total={pages} value={page} onChange={setPage} siblings={1} />
          </Group>
        )}
      </Paper>
      <LazyAlertDetailModal tenantId={tenantId} alertId={open} onClose={() => setOpen(null)} />
    </>
  );
}
