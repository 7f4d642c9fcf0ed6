import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBuildingSkyscraper, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useAnalytics } from '../api/analytics.ts';

const PRIORITY = {
  critical: { label: 'Critical', color: 'red.6' },
  high: { label: 'High', color: 'orange.6' },
  medium: { label: 'Medium', color: 'yellow.6' },
  low: { label: 'Low', color: 'blue.6' },
  info: { label: 'Info', color: 'gray.6' },
} as const;
const PLAN_COLORS = ['orange.6', 'blue.6', 'teal.6', 'grape.6', 'cyan.6', 'pink.6', 'lime.6', 'indigo.6'];

/** "2026-03-10" (a UTC day) → "Mar 10". */
const dayLabel = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function Stat({ label, value, icon: Icon, color }: { label: string; value: number; icon: typeof IconUsers; color: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {label}
          </Text>
          <Text fw={800} fz={28} data-testid={`stat-${label}`}>
            {value.toLocaleString()}
          </Text>
        </div>
        <ThemeIcon size={44} radius="md" variant="light" color={color}>
          <Icon size={24} />
        </ThemeIcon>
      </Group>
    </Paper>
  );
}

/** Platform figures; a module of its own so the chart library loads only when this tab is opened. */
export default function AnalyticsTab() {
  const analytics = useAnalytics();
  if (analytics.isPending) return <Loading />;
  if (analytics.isError) return <LoadError message="Failed to load analytics. Please try again." onRetry={() => analytics.refetch()} />;
  const a = analytics.data;
  const perDay = a.alertsPerDay.map((d) => ({ day: dayLabel(d.date), Alerts: d.count }));
  const byPriority = a.alertsByPriority.map((p) => ({ priority: PRIORITY[p.priority].label, Alerts: p.count, color: PRIORITY[p.priority].color }));
  const byPlan = a.tenantsByPlan.map((p, i) => ({ name: p.planName ?? `${p.plan} (deleted)`, value: p.count, color: PLAN_COLORS[i % PLAN_COLORS.length] }));

  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Stat label="Tenants" value={a.totals.tenants} icon={IconBuildingSkyscraper} color="orange" />
        <Stat label="Users" value={a.totals.users} icon={IconUsers} color="blue" />
        <Stat label="Clients" value={a.totals.clients} icon={IconUsersGroup} color="teal" />
        <Stat label="Alerts (30 days)" value={a.totals.alertsLast30Days} icon={IconAlertTriangle} color="red" />
      </SimpleGrid>
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="md">
          <Title order={2} size="h4">Alerts received per day</Title>
          <Text size="sm" c="dimmed">
            Last 30 days, all tenants
          </Text>
        </Group>
        <AreaChart
          h={260}
          data={perDay}
          dataKey="day"
          series={[{ name: 'Alerts', color: 'orange.6' }]}
          curveType="linear"
          withDots={false}
          gridAxis="y"
          tickLine="none"
          yAxisProps={{ allowDecimals: false }}
          data-testid="alerts-per-day-chart"
        />
        {a.totals.alertsLast30Days === 0 && (
          <Text size="sm" c="dimmed" ta="center" mt="xs">
            No alerts were received in the last 30 days.
          </Text>
        )}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="md">
            Alerts by priority
          </Title>
          <BarChart h={220} data={byPriority} dataKey="priority" series={[{ name: 'Alerts', color: 'orange.6' }]} gridAxis="y" tickLine="none" yAxisProps={{ allowDecimals: false }} />
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="md">
            Tenants by plan
          </Title>
          {byPlan.length === 0 ? (
            <Text c="dimmed" size="sm">
              No tenants yet.
            </Text>
          ) : (
            <Group justify="center" gap="xl" wrap="wrap">
              <DonutChart data={byPlan} size={170} thickness={26} withTooltip chartLabel={`${a.totals.tenants} tenants`} />
              <Stack gap={6} data-testid="tenants-by-plan">
                {byPlan.map((p) => (
                  <Group key={p.name} gap="xs" wrap="nowrap">
                    <span style={{ width: 10, height: 10, borderRadius: 999, background: `var(--mantine-color-${p.color.replace('.', '-')})` }} />
                    <Text size="sm" className="grow">
                      {p.name}
                    </Text>
                    <Text size="sm" fw={700}>
                      {p.value}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Group>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
