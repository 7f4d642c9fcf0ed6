import { Paper, SimpleGrid, Skeleton, Text, ThemeIcon, Group } from '@mantine/core';
import { IconAlertOctagon, IconAlertTriangle, IconInfoCircle, IconAlertCircle } from '@tabler/icons-react';
import { ALERT_MSG } from '../../../../../contract/alerts-text.ts';
import type { AlertStats } from '../../../../../contract/alerts.ts';

const CARDS = [
  { key: 'critical', label: ALERT_MSG.statCritical, color: 'red', icon: IconAlertOctagon },
  { key: 'high', label: ALERT_MSG.statHigh, color: 'orange', icon: IconAlertTriangle },
  { key: 'medium', label: ALERT_MSG.statMedium, color: 'yellow', icon: IconAlertCircle },
  { key: 'lowInfo', label: ALERT_MSG.statLowInfo, color: 'blue', icon: IconInfoCircle },
] as const;

/** The four stat cards of the dashboard: every active alert of the tenant, by priority. */
export function StatCards({ stats, loading, compact = false }: { stats: AlertStats | undefined; loading: boolean; compact?: boolean }) {
  // On a phone the cards shrink so that the first alert shows without scrolling.
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing={compact ? 'xs' : 'md'} mb={compact ? 'sm' : 'lg'}>
      {CARDS.map((c) => (
        <Paper key={c.key} withBorder p={compact ? 'xs' : 'md'} radius="md" data-testid={`stat-${c.key}`}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div className="min-w-0">
              <Text size={compact ? 'xs' : 'sm'} c="dimmed" fw={600}>
                {c.label}
              </Text>
              {loading && !stats ? (
                <Skeleton h={compact ? 24 : 34} w={48} mt={compact ? 2 : 6} />
              ) : (
                <Text fz={compact ? 22 : 30} fw={800} lh={1.2} data-testid={`stat-${c.key}-count`}>
                  {stats ? stats[c.key] : '–'}
                </Text>
              )}
            </div>
            <ThemeIcon color={c.color} variant="light" size={compact ? 28 : 40} radius="md" aria-hidden>
              <c.icon size={compact ? 16 : 22} />
            </ThemeIcon>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
