import { useState } from 'react';
import { Anchor, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ALERT_MSG, HISTORY_PAGE_SIZE, type Alert } from '../../../../../contract/alerts.ts';
import { NoTenant, LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useAlertHistory } from '../api/list-alert-history.ts';
import { useAlertStream } from '../api/alert-stream.ts';
import { AlertCard } from '../components/AlertCard.tsx';
import { LazyAlertDetailModal } from '../components/LazyAlertDetailModal.tsx';
import { HistoryFilters } from '../components/HistoryFilters.tsx';
import { HistoryExportButton, HistoryExportStatus, useHistoryExport } from '../components/HistoryExport.tsx';
import { rangeInOrder, useHistoryView } from '../lib/history-params.ts';
import { PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { Pager } from '../../../components/Pager.tsx';

/** How many alerts match: the list counts up to HISTORY_COUNT_LIMIT (the export takes them all). */
const countText = (total: number, capped: boolean) =>
  capped ? `More than ${total.toLocaleString('en')} alerts` : `${total.toLocaleString('en')} ${total === 1 ? 'alert' : 'alerts'}`;

/**
 * Resolved and closed alerts: searchable, filterable by status, priority, client and when they were resolved (all of
 * it in the address), paginated, exported as CSV; each one opens in the detail modal.
 */
export function AlertHistoryPage() {
  const { tenant } = useCurrentTenant();
  if (!tenant) return <NoTenant />;
  return <History tenantId={tenant.id} />;
}

function History({ tenantId }: { tenantId: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const { view, setFilter, setPage, clearFilters, activeFilters } = useHistoryView();
  useAlertStream(tenantId);
  const history = useAlertHistory(tenantId, view);
  const exporter = useHistoryExport(tenantId, view);
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / HISTORY_PAGE_SIZE)) : 1;
  const onOpen = (a: Alert) => setOpen(a.id);
  const ordered = rangeInOrder(view);

  return (
    <>
      <PageHeader
        title="Alert History"
        description="Resolved and closed alerts"
        actions={
          <>
            <HistoryExportButton exporter={exporter} disabled={!ordered || !history.data || history.data.total === 0} />
            <Button component={Link} to="/app/dashboard" variant="default" leftSection={<IconArrowLeft size={16} />}>
              Active alerts
            </Button>
          </>
        }
      />
      <HistoryExportStatus exporter={exporter} />
      <Paper withBorder p="md" radius="md">
        <HistoryFilters tenantId={tenantId} view={view} setFilter={setFilter} />
        {(activeFilters > 0 || (ordered && history.data)) && (
          <Group justify="space-between" mb="sm" gap="sm" mih={26}>
            <Text size="sm" c="dimmed" data-testid="history-count">
              {ordered && history.data ? countText(history.data.total, !!history.data.totalCapped) : ''}
            </Text>
            {activeFilters > 0 && (
              <Button variant="subtle" size="compact-sm" onClick={clearFilters} data-testid="history-clear">
                Clear filters
              </Button>
            )}
          </Group>
        )}

        {!ordered ? null : history.isPending ? (
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
        {ordered && history.data && history.data.total > HISTORY_PAGE_SIZE && (
          <Group justify={history.data.totalCapped ? 'space-between' : 'flex-end'} mt="md" wrap="wrap" gap="sm">
            {history.data.totalCapped && (
              <Text size="sm" c="dimmed">
                Narrow the search to see older ones
              </Text>
            )}
            <Pager total={pages} value={view.page} onChange={setPage} siblings={1} />
          </Group>
        )}
      </Paper>
      <LazyAlertDetailModal tenantId={tenantId} alertId={open} onClose={() => setOpen(null)} />
    </>
  );
}
