import { lazy, Suspense, useState } from 'react';
import { Anchor, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconHistory, IconRefresh, IconUsers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useSearchParams } from 'react-router';
import {
  ACTIVE_ALERT_LIMIT,
  ACTIVE_STATUSES,
  ALERT_MSG,
  ALERT_PRIORITIES,
  PRIORITY_LABELS,
  STATUS_LABELS,
  type ActiveAlertsQuery,
  type Alert,
} from '../../../../../contract/alerts.ts';
import { MSG } from '../../../../../contract/messages.ts';
import type { TenantAbilities } from '../../../../../contract/auth.ts';
import { NoTenant, LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useCurrentTenant, useSignedInMe } from '../../../lib/session.tsx';
import { useActiveAlerts } from '../api/list-active-alerts.ts';
import { useAlertStats } from '../api/alert-stats.ts';
import { useAlertStream, useLoadAfterStream } from '../api/alert-stream.ts';
import { StatCards } from '../components/StatCards.tsx';
import { AlertCard } from '../components/AlertCard.tsx';
import { LazyAlertDetailModal } from '../components/LazyAlertDetailModal.tsx';
import { LiveIndicator } from '../../../components/LiveIndicator.tsx';

// Only a tenant that never had an alert sees it: its code stays out of every other dashboard load.
const GettingStarted = lazy(async () => ({ default: (await import('../components/GettingStarted.tsx')).GettingStarted }));

const STATUS_OPTIONS = [{ value: 'all', label: 'All' }, ...ACTIVE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];
const PRIORITY_OPTIONS = [{ value: 'all', label: 'All' }, ...ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))];

export function DashboardPage() {
  const { tenant } = useCurrentTenant();
  const me = useSignedInMe();
  // A super admin who belongs to no tenant runs the platform: their place is System Administration.
  if (!tenant && me.abilities.systemAdmin) return <Navigate to="/app/system-admin" replace />;
  if (!tenant)
    return (
      <NoTenant>
        <Button component={Link} to="/login?google=register">
          Create your organization
        </Button>
      </NoTenant>
    );
  return <Dashboard tenantId={tenant.id} tenantName={tenant.name} abilities={tenant.abilities} />;
}

/** The filters and the open alert live in the address, so a link (or a push notification) can open one. */
function useDashboardParams() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const priority = params.get('priority');
  const filter: ActiveAlertsQuery = {
    status: status && (ACTIVE_STATUSES as readonly string[]).includes(status) ? status : 'all',
    priority: priority && (ALERT_PRIORITIES as readonly string[]).includes(priority) ? priority : 'all',
  };
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (!value || value === 'all') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: key !== 'alert' },
    );
  return { filter, alertId: params.get('alert'), set };
}

function Dashboard({ tenantId, tenantName, abilities }: { tenantId: string; tenantName: string; abilities: TenantAbilities }) {
  const qc = useQueryClient();
  const { filter, alertId, set } = useDashboardParams();
  const stream = useAlertStream(tenantId);
  // One request each on a first visit: they start when the stream is subscribed (issue 14).
  const load = useLoadAfterStream(stream);
  const stats = useAlertStats(tenantId, load);
  const list = useActiveAlerts(tenantId, filter, load);
  // Only a refresh asked for shows a spinner; the frequent live reloads happen quietly.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) }).finally(() => setRefreshing(false));
  };
  const open = (a: Alert) => set('alert', a.id);

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Active alerts of ${tenantName}`}
        actions={
          <>
            <LiveIndicator state={stream} />
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={refreshing}>
              {ALERT_MSG.refresh}
            </Button>
            <Button component={Link} to="/clients" leftSection={<IconUsers size={16} />}>
              {ALERT_MSG.manageClients}
            </Button>
          </>
        }
      />
      <StatCards stats={stats.data} loading={stats.isPending} />

      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" align="flex-end" mb="md" gap="sm">
          <div>
            <Title order={3}>{ALERT_MSG.activeAlerts}</Title>
            {list.data && (
              <Text size="sm" c="dimmed" data-testid="active-count">
                {list.data.total > list.data.items.length
                  ? `Showing the newest ${list.data.items.length} of ${list.data.total}`
                  : `${list.data.total} ${list.data.total === 1 ? 'alert' : 'alerts'}`}
              </Text>
            )}
          </div>
          <Group gap="sm" wrap="wrap">
            <Select label="Status" data={STATUS_OPTIONS} value={filter.status} onChange={(v) => set('status', v)} allowDeselect={false} w={150} data-testid="filter-status" />
            <Select label="Priority" data={PRIORITY_OPTIONS} value={filter.priority} onChange={(v) => set('priority', v)} allowDeselect={false} w={150} data-testid="filter-priority" />
          </Group>
        </Group>

        {list.isPending ? (
          <Loading />
        ) : list.isError && !list.data ? (
          <LoadError message={ALERT_MSG.alertsLoadFailed} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 && stats.data?.hasAlerts === false ? (
          <Suspense fallback={<Loading />}>
            <GettingStarted abilities={abilities} />
          </Suspense>
        ) : list.data.items.length === 0 ? (
          <Text ta="center" c="dimmed" py="xl" data-testid="alerts-empty">
            {MSG.noAlertsMatch}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="alert-list" className={list.isPlaceholderData ? 'stale' : undefined}>
            {list.data.items.slice(0, ACTIVE_ALERT_LIMIT).map((a) => (
              <AlertCard key={a.id} alert={a} onOpen={open} />
            ))}
          </Stack>
        )}
        <Group justify="flex-end" mt="md">
          <Anchor component={Link} to="/app/alerts/history" size="sm">
            <Group gap={4} wrap="nowrap">
              <IconHistory size={16} />
              Resolved and closed alerts
            </Group>
          </Anchor>
        </Group>
      </Paper>

      <LazyAlertDetailModal tenantId={tenantId} alertId={alertId} onClose={() => set('alert', null)} />
    </>
  );
}
