import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconClockExclamation, IconRepeat, IconUser } from '@tabler/icons-react';
import { PAGING_MSG } from '../../../../../contract/paging.ts';
import type { Alert } from '../../../../../contract/alerts.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { PRIORITY_COLORS, PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';

/** One alert in a list; the whole card opens the detail modal. */
export function AlertCard({ alert, onOpen }: { alert: Alert; onOpen: (a: Alert) => void }) {
  return (
    <UnstyledButton onClick={() => onOpen(alert)} w="100%" data-testid="alert-card" data-alert-id={alert.id}>
      <Paper withBorder p="sm" radius="md" style={{ borderLeft: `4px solid var(--mantine-color-${PRIORITY_COLORS[alert.priority]}-filled)` }}>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap={6} wrap="nowrap">
              <PriorityBadge priority={alert.priority} />
              <StatusBadge status={alert.status} />
              {alert.overdueAt && (
                <Badge color="red" variant="filled" size="sm" leftSection={<IconClockExclamation size={12} />} data-testid="overdue-badge">
                  {PAGING_MSG.overdue}
                </Badge>
              )}
              {alert.occurrences > 1 && (
                <Group gap={2} c="dimmed" wrap="nowrap" title={`Seen ${alert.occurrences} times`}>
                  <IconRepeat size={14} aria-hidden />
                  <Text size="xs">×{alert.occurrences}</Text>
                </Group>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {formatDateTime(alert.createdAt)}
            </Text>
          </Group>
          <Text fw={600} className="wrap-anywhere" lineClamp={2}>
            {alert.title}
          </Text>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" className="wrap-anywhere min-w-0" lineClamp={1}>
              {[alert.source, alert.clientName].filter(Boolean).join(' · ')}
            </Text>
            {alert.assigneeName && (
              <Group gap={4} wrap="nowrap" className="no-shrink">
                <IconUser size={14} aria-hidden />
                <Text size="xs" truncate maw={160}>
                  {alert.assigneeName}
                </Text>
              </Group>
            )}
          </Group>
        </Stack>
      </Paper>
    </UnstyledButton>
  );
}
