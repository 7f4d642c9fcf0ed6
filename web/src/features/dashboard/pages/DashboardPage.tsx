import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
// The cards are the first view itself: a lazy card would suspend the first render, and React reveals a suspended
// boundary's content in 300 ms steps (measured: the first card 150–300 ms after its list had arrived).
import { AlertCard } from '../components/AlertCard.tsx';
import { Alert as Callout, Anchor, Button, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHistory, IconKeyboard, IconRefresh, IconUsers, IconWifiOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import { ALERT_MSG } from '../../../../../contract/alerts-text.ts';
import type { Alert, BulkAction, BulkAlertResult } from '../../../../../contract/alerts.ts';
import { MSG } from '../../../../../contract/messages.ts';
import type { TenantAbilities } from '../../../../../contract/auth.ts';
import { NoTenant, LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { LiveIndicator, type LiveState } from '../../../components/LiveIndicator.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatTime } from '../../../lib/dates.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useCurrentTenant, useSignedInMe } from '../../../lib/session.tsx';
import { useActiveAlerts } from '../api/list-active-alerts.ts';
import { useAlertStats } from '../api/alert-stats.ts';
import { useAlertStream } from '../api/alert-stream.ts';
import { useListAlertAction, type StatusAction } from '../api/alert-action.ts';
import { StatCards } from '../components/StatCards.tsx';
import { AlertCompactCard } from '../components/AlertCompactCard.tsx';
import compactClasses from '../components/AlertCompactCard.module.css';
import { SelectBox } from '../components/SelectBox.tsx';
import { AlertFilters } from '../components/AlertFilters.tsx';
import type { BulkProblems } from '../components/BulkBar.tsx';
import { LazyAlertDetailModal } from '../components/LazyAlertDetailModal.tsx';
import { useDashboardParams } from '../lib/dashboard-params.ts';
import { useListKeys } from '../lib/use-list-keys.ts';
import { useDashboardView, type DashboardView } from '../lib/dashboard-view.ts';
import { keyRefusal } from '../lib/key-refusal.ts';
import { useOnline } from '../lib/use-online.ts';
import { usePhone } from '../lib/use-phone.ts';

// Only a tenant that never had an alert sees it: its code stays out of every other dashboard load.
const GettingStarted = lazy(async () => ({ default: (await import('../components/GettingStarted.tsx')).GettingStarted }));
// What a first look at the cards does not need loads when it is used (issue 14's 250 kB budget for the dashboard).
const AlertTable = lazy(async () => ({ default: (await import('../components/AlertTable.tsx')).AlertTable }));
const BulkBar = lazy(async () => ({ default: (await import('../components/BulkBar.tsx')).BulkBar }));
const BulkProblemsNotice = lazy(async () => ({ default: (await import('../components/BulkBar.tsx')).BulkProblemsNotice }));
const KeyboardHelp = lazy(async () => ({ default: (await import('../components/KeyboardHelp.tsx')).KeyboardHelp }));
const Pager = lazy(async () => ({ default: (await import('../../../components/Pager.tsx')).Pager }));
// Reads the tenant's windows after the first paint: its list and contract stay out of the dashboard's first load.
const MaintenanceBanner = lazy(async () => ({ default: (await import('../components/MaintenanceBanner.tsx')).MaintenanceBanner }));
const PagedNobodyBanner = lazy(async () => ({ default: (await import('../components/PagedNobody.tsx')).PagedNobodyBanner }));

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
  return <Dashboard tenantId={tenant.id} tenantName={tenant.name} abilities={tenant.abilities} userId={me.user.id} />;
}

/** The view toggle's buttons (words only: icons would cost the first paint's budget); a phone has no table. */
const VIEW_BUTTONS: Array<{ view: DashboardView; label: string; phone: boolean }> = [
  { view: 'compact', label: 'Compact', phone: true },
  { view: 'roomy', label: 'Cards', phone: true },
  { view: 'table', label: 'Table', phone: false },
];

/** The ages on screen move on by themselves. */
function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

const ACTION_DONE: Record<'acknowledge' | 'resolve', string> = { acknowledge: 'Acknowledged', resolve: 'Resolved' };

function Dashboard({ tenantId, tenantName, abilities, userId }: { tenantId: string; tenantName: string; abilities: TenantAbilities; userId: string }) {
  const qc = useQueryClient();
  const { filter, alertId, setFilter, setPage, setAlert, clearFilters, activeFilters } = useDashboardParams();
  const stream = useAlertStream(tenantId);
  // Asked at once, in parallel with the stream's subscription: its `ready` says whether they missed a change (issue 33).
  // An app starting here asked for both already (prefetch-dashboard.ts): these queries take those requests over.
  const stats = useAlertStats(tenantId);
  const list = useActiveAlerts(tenantId, filter);
  const online = useOnline();
  const now = useNow(30_000);
  const phone = usePhone();
  // Compact cards, roomy cards or the table, kept per person on this browser (issue 32).
  const [view, setView] = useDashboardView(userId, phone);

  const items = list.data?.items ?? [];
  const [selected, setSelected] = useState<Map<string, Alert>>(new Map());
  const [problems, setProblems] = useState<BulkProblems | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const quick = useListAlertAction(tenantId);

  // Another list (filter, sort or page) starts with nothing selected.
  const listKey = JSON.stringify(filter);
  useEffect(() => setSelected(new Map()), [listKey]);
  // Selected alerts that left the list (resolved elsewhere, filtered out) are no longer selected.
  useEffect(() => {
    if (!list.data) return;
    setSelected((s) => {
      const ids = new Set(list.data.items.map((a) => a.id));
      const kept = [...s].filter(([id]) => ids.has(id));
      return kept.length === s.size ? s : new Map(kept);
    });
  }, [list.data]);

  // Only a refresh asked for shows a spinner; the frequent live reloads happen quietly.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void qc.invalidateQueries({ queryKey: queryKeys.alerts(tenantId) }).finally(() => setRefreshing(false));
  };
  // Stable, so a live update renders only the cards whose alert changed (AlertCard is memoised).
  const open = useCallback((a: Alert) => setAlert(a.id), [setAlert]);
  const select = useCallback(
    (a: Alert, on: boolean) =>
      setSelected((s) => {
        const next = new Map(s);
        if (on) next.set(a.id, a);
        else next.delete(a.id);
        return next;
      }),
    [],
  );
  const selectAll = (on: boolean) => setSelected(on ? new Map(items.map((a) => [a.id, a])) : new Map());

  const onBulkDone = (result: BulkAlertResult, action: BulkAction) => {
    const failed = result.results.filter((r) => !r.ok);
    setProblems(
      failed.length
        ? { action, items: failed.map((r) => ({ id: r.id, title: selected.get(r.id)?.title ?? r.id, message: r.error?.message ?? ALERT_MSG.actionFailed })) }
        : null,
    );
    setSelected(new Map());
  };

  // The keyboard cursor: j/k move it and the focus to that alert's button (Enter then opens it natively).
  const cursorIndex = items.findIndex((a) => a.id === cursor);
  const moveTo = (index: number) => {
    const a = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!a) return;
    setCursor(a.id);
    const el = listRef.current?.querySelector<HTMLElement>(`[data-alert-id="${CSS.escape(a.id)}"] [data-testid="alert-open"]`);
    el?.focus();
    el?.scrollIntoView({ block: 'nearest' });
  };
  const current = cursorIndex >= 0 ? items[cursorIndex] : undefined;
  // A key that cannot act says why (issue 32): no alert under the cursor, or one whose status does not allow it.
  const quickAction = (action: 'acknowledge' | 'resolve') => {
    if (!current) {
      notifications.show({ color: 'yellow', message: ALERT_MSG.noAlertChosen });
      return;
    }
    if (!current.actions.includes(action)) {
      notifications.show({ color: 'yellow', message: keyRefusal(action, current.status) });
      return;
    }
    quick.mutate(
      { alertId: current.id, action: action as StatusAction },
      {
        onSuccess: () => notifications.show({ color: 'green', message: `${ACTION_DONE[action]}: ${current.title}` }),
        // Changed meanwhile (a colleague, the monitoring tool): the status it was found in says why.
        onError: (e) =>
          e instanceof ApiError && e.status === 409
            ? notifications.show({ color: 'yellow', message: keyRefusal(action, e.fields.status) })
            : notifications.show({ color: 'red', message: ALERT_MSG.actionFailed }),
      },
    );
  };
  useListKeys(
    {
      next: () => moveTo(cursorIndex + 1),
      previous: () => moveTo(cursorIndex < 0 ? 0 : cursorIndex - 1),
      open: () => current && open(current),
      toggle: () => current && select(current, !selected.has(current.id)),
      acknowledge: () => quickAction('acknowledge'),
      resolve: () => quickAction('resolve'),
      search: () => searchRef.current?.focus(),
      help: () => setHelp(true),
    },
    !!alertId || help,
    listRef,
  );
  // Tabbing onto an alert moves the cursor there too.
  const onFocusList = (e: React.FocusEvent) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>('[data-alert-id]')?.dataset.alertId;
    if (id) setCursor(id);
  };

  const apiFailing = (list.isError && list.fetchStatus === 'idle') || (stats.isError && stats.fetchStatus === 'idle');
  const liveState: LiveState = !online || apiFailing ? 'offline' : stream;
  const total = list.data?.total ?? 0;
  const pages = list.data ? Math.max(1, Math.ceil(total / list.data.pageSize)) : 1;
  const first = list.data && total ? (list.data.page - 1) * list.data.pageSize + 1 : 0;
  const allOnPage = items.length > 0 && items.every((a) => selected.has(a.id));

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Active alerts of ${tenantName}`}
        actions={
          <>
            <LiveIndicator state={liveState} />
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={refreshing}>
              {ALERT_MSG.refresh}
            </Button>
            <Button component={Link} to="/clients" leftSection={<IconUsers size={16} />} visibleFrom="sm">
              {ALERT_MSG.manageClients}
            </Button>
          </>
        }
      />
      <Suspense>
        <MaintenanceBanner tenantId={tenantId} canManage={abilities.manageEscalation} />
      </Suspense>
      {!!stats.data?.pagedNobody && (
        <Suspense>
          <PagedNobodyBanner count={stats.data.pagedNobody} canManage={abilities.manageEscalation} />
        </Suspense>
      )}
      {/* The compact view is the dense dashboard: smaller figures leave the room to more alerts (issue 32). */}
      <StatCards stats={stats.data} loading={stats.isPending} compact={phone || view === 'compact'} />

      <Paper withBorder p={phone ? 'sm' : 'md'} radius="md">
        <Group justify="space-between" align="center" mb="sm" gap="sm">
          <div>
            <Title order={2} size="h3">
              {ALERT_MSG.activeAlerts}
            </Title>
            {list.data && (
              <Text size="sm" c="dimmed" data-testid="active-count" aria-live="polite">
                {total > items.length ? `Showing ${first}–${first + items.length - 1} of ${total}` : `${total} ${total === 1 ? 'alert' : 'alerts'}`}
              </Text>
            )}
          </div>
          <Group gap="xs">
            <Button variant="subtle" size="xs" leftSection={<IconKeyboard size={16} />} onClick={() => setHelp(true)} visibleFrom="sm" data-testid="keyboard-help-button">
              Keys <VisuallyHidden>(press ?)</VisuallyHidden>
            </Button>
            <Button.Group aria-label="View" data-testid="view-toggle">
              {VIEW_BUTTONS.filter((b) => b.phone || !phone).map((b) => (
                <Button key={b.view} size="xs" variant={view === b.view ? 'filled' : 'default'} aria-pressed={view === b.view} onClick={() => setView(b.view)}>
                  {b.label}
                </Button>
              ))}
            </Button.Group>
          </Group>
        </Group>

        <AlertFilters ref={searchRef} tenantId={tenantId} filter={filter} activeFilters={activeFilters} setFilter={setFilter} clearFilters={clearFilters} />

        <div style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          <Suspense>
            {selected.size > 0 && <BulkBar tenantId={tenantId} selected={[...selected.values()]} onDone={onBulkDone} onClear={() => setSelected(new Map())} />}
            {problems && <BulkProblemsNotice problems={problems} onClose={() => setProblems(null)} />}
          </Suspense>
          {list.isError && list.data && (
            <Callout color="red" icon={<IconWifiOff size={18} />} mb="sm" data-testid="alerts-stale">
              <Group justify="space-between" gap="xs">
                <Text size="sm">
                  {ALERT_MSG.alertsLoadFailed} Showing the list as of {formatTime(new Date(list.dataUpdatedAt).toISOString())}.
                </Text>
                <Button size="xs" variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
                  Retry
                </Button>
              </Group>
            </Callout>
          )}

          {list.isPending ? (
            <Loading />
          ) : list.isError && !list.data ? (
            <LoadError message={ALERT_MSG.alertsLoadFailed} onRetry={() => void list.refetch()} />
          ) : items.length === 0 && stats.data?.hasAlerts === false && activeFilters === 0 ? (
            <Suspense fallback={<Loading />}>
              <GettingStarted tenantId={tenantId} abilities={abilities} />
            </Suspense>
          ) : items.length === 0 ? (
            <Stack align="center" py="xl" gap="xs">
              <Text c="dimmed" data-testid="alerts-empty">
                {activeFilters > 0 ? MSG.noAlertsMatch : ALERT_MSG.noAlertsOpen}
              </Text>
              {activeFilters > 0 && (
                <Button variant="subtle" size="xs" onClick={clearFilters}>
                  Clear filters
                </Button>
              )}
            </Stack>
          ) : view === 'table' ? (
            <div ref={listRef} onFocus={onFocusList} className={list.isPlaceholderData ? 'stale' : undefined} data-testid="alert-list" data-view="table">
              <Suspense fallback={<Loading />}>
                <AlertTable alerts={items} now={now} onOpen={open} selected={new Set(selected.keys())} onSelect={select} onSelectAll={selectAll} activeId={cursor} />
              </Suspense>
            </div>
          ) : (
            <>
              <label className="select-all">
                <SelectBox label="Select all on this page" checked={allOnPage} indeterminate={selected.size > 0 && !allOnPage} onChange={selectAll} testId="select-all" />
                Select all on this page
              </label>
              {view === 'compact' ? (
                <Stack gap={4} ref={listRef} onFocus={onFocusList} data-testid="alert-list" data-view="compact" className={`${compactClasses.list}${list.isPlaceholderData ? ' stale' : ''}`}>
                  {items.map((a) => (
                    <AlertCompactCard key={a.id} alert={a} onOpen={open} now={now} selected={selected.has(a.id)} onSelect={select} active={a.id === cursor} />
                  ))}
                </Stack>
              ) : (
                <Stack gap="xs" ref={listRef} onFocus={onFocusList} data-testid="alert-list" data-view="roomy" className={list.isPlaceholderData ? 'stale' : undefined}>
                  <Suspense fallback={<Loading />}>
                    {items.map((a) => (
                      <AlertCard key={a.id} alert={a} onOpen={open} now={now} selected={selected.has(a.id)} onSelect={select} active={a.id === cursor} />
                    ))}
                  </Suspense>
                </Stack>
              )}
            </>
          )}
        </div>
        <Group justify="space-between" mt="md" gap="sm">
          {pages > 1 ? (
            <Suspense fallback={<span />}>
              <Pager total={pages} value={list.data?.page ?? 1} onChange={setPage} />
            </Suspense>
          ) : (
            <span />
          )}
          <Anchor component={Link} to="/app/alerts/history" size="sm">
            <Group gap={4} wrap="nowrap">
              <IconHistory size={16} />
              Resolved and closed alerts
            </Group>
          </Anchor>
        </Group>
      </Paper>

      <LazyAlertDetailModal tenantId={tenantId} alertId={alertId} onClose={() => setAlert(null)} />
      {help && (
        <Suspense>
          <KeyboardHelp opened onClose={() => setHelp(false)} />
        </Suspense>
      )}
    </>
  );
}
