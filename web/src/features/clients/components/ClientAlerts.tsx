import type { ReactNode } from 'react';
import { Alert as Notice, Anchor, Box, Button, Group, Loader, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowRight } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Alert, AlertList } from '../../../../../contract/alerts.ts';
import { CLIENT_MSG } from '../../../../../contract/clients.ts';
import { PriorityBadge } from '../../../components/AlertBadges.tsx';
import { formatAge, formatDateTime } from '../../../lib/dates.ts';
import { useClientAlertHistory } from '../api/list-client-alert-history.ts';
import { useClientOpenAlerts } from '../api/list-client-open-alerts.ts';

/** The dashboard opens an alert's detail from `?alert=`; it and the alert history filter by client from `?clientId=`. */
const alertHref = (alertId: string) => `/app/dashboard?alert=${encodeURIComponent(alertId)}`;
const clientDashboardHref = (clientId: string) => `/app/dashboard?clientId=${encodeURIComponent(clientId)}`;
const clientHistoryHref = (clientId: string) => `/app/alerts/history?clientId=${encodeURIComponent(clientId)}`;

function MoreLink({ to, children, testId }: { to: string; children: ReactNode; testId: string }) {
  return (
    <Anchor component={Link} to={to} size="sm" data-testid={testId}>
      <Group gap={4} component="span" wrap="nowrap">
        {children}
        <IconArrowRight size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}

const ago = (at: string, now: number) => {
  const age = formatAge(at, now);
  return age === 'just now' || !age ? age : `${age} ago`;
};

/** One alert as a link to its details on the dashboard: priority, title, and how long ago `at` was (exact on hover). */
function AlertLink({ alert, at, atLabel, now }: { alert: Alert; at: string; atLabel: string; now: number }) {
  const exact = formatDateTime(at);
  return (
    <Box component="li">
      <NavLink
        component={Link}
        to={alertHref(alert.id)}
        data-testid="client-alert-link"
        data-alert-id={alert.id}
        px="xs"
        py={6}
        leftSection={<PriorityBadge priority={alert.priority} />}
        label={
          <Text size="sm" fw={500} className="wrap-anywhere" data-testid="client-alert-title">
            {alert.title}
          </Text>
        }
        rightSection={
          <Text size="xs" c="dimmed" component="time" dateTime={at} title={`${atLabel} ${exact}`} className="nowrap">
            {ago(at, now)}
          </Text>
        }
      />
    </Box>
  );
}

function Section({ id, title, count, children, footer }: { id: string; title: string; count: string | null; children: ReactNode; footer?: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-labelledby={`${id}-title`} data-testid={id}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Title order={3} size="h5" id={`${id}-title`}>
          {title}
        </Title>
        {count && (
          <Text size="sm" c="dimmed" data-testid={`${id}-count`}>
            {count}
          </Text>
        )}
      </Group>
      {children}
      {footer}
    </Stack>
  );
}

/** The states every alert list of the modal goes through: loading, failed (with Retry), empty, or the list. */
function AlertListBody({ query, empty, failed, render }: { query: UseQueryResult<AlertList>; empty: string; failed: string; render: (a: Alert) => ReactNode }) {
  if (query.isPending)
    return (
      <Group gap="xs" py="xs" role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Group>
    );
  if (query.isError)
    return (
      <Notice color="red" icon={<IconAlertCircle />} py="xs" data-testid="client-alerts-error">
        <Group justify="space-between" gap="xs">
          <Text size="sm">{failed}</Text>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
            Retry
          </Button>
        </Group>
      </Notice>
    );
  if (query.data.items.length === 0)
    return (
      <Text size="sm" c="dimmed" py={4}>
        {empty}
      </Text>
    );
  return (
    <Paper withBorder radius="md" p={4}>
      <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
        {query.data.items.map(render)}
      </Stack>
    </Paper>
  );
}

/** A client's open alerts (most urgent first) and its latest resolved ones, each a link to the alert on the dashboard. */
export function ClientAlerts({ tenantId, clientId }: { tenantId: string; clientId: string }) {
  const open = useClientOpenAlerts(tenantId, clientId);
  const history = useClientAlertHistory(tenantId, clientId);
  const now = Date.now();

  const openTotal = open.data?.total ?? 0;
  const openShown = open.data?.items.length ?? 0;
  const openCount = !open.data || openTotal === 0 ? null : openTotal > openShown ? `Showing ${openShown} of ${openTotal}` : `${openTotal} open`;
  const historyTotal = history.data?.total ?? 0;
  const historyShown = history.data?.items.length ?? 0;
  const historyCount = !history.data || historyTotal === 0 ? null : historyTotal > historyShown ? `Latest ${historyShown} of ${historyTotal}` : `${historyTotal} resolved`;

  return (
    <Stack gap="md" data-testid="client-alerts">
      <Section
        id="client-open-alerts"
        title="Open alerts"
        count={openCount}
        footer={
          openTotal > 0 && (
            <MoreLink to={clientDashboardHref(clientId)} testId="client-alerts-dashboard-link">
              {openTotal > openShown ? `See all ${openTotal} on the dashboard` : `See ${openTotal === 1 ? 'it' : 'them'} on the dashboard`}
            </MoreLink>
          )
        }
      >
        <AlertListBody
          query={open}
          empty={CLIENT_MSG.noOpenAlerts}
          failed={CLIENT_MSG.openAlertsLoadFailed}
          render={(a) => <AlertLink key={a.id} alert={a} at={a.createdAt} atLabel="Opened" now={now} />}
        />
      </Section>
      <Section
        id="client-alert-history"
        title="Recent history"
        count={historyCount}
        footer={
          historyTotal > 0 && (
            <MoreLink to={clientHistoryHref(clientId)} testId="client-alerts-history-link">
              {historyTotal > historyShown ? `See all ${historyTotal} in the alert history` : `See ${historyTotal === 1 ? 'it' : 'them'} in the alert history`}
            </MoreLink>
          )
        }
      >
        <AlertListBody
          query={history}
          empty={CLIENT_MSG.noResolvedAlerts}
          failed={CLIENT_MSG.historyLoadFailed}
          render={(a) => {
            const at = a.resolvedAt ?? a.closedAt ?? a.updatedAt;
            return <AlertLink key={a.id} alert={a} at={at} atLabel={a.resolvedAt ? 'Resolved' : 'Closed'} now={now} />;
          }}
        />
      </Section>
    </Stack>
  );
}
