import { Anchor, Badge, Code, Group, Paper, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconPlayerPause, IconPlayerPlay, IconRefresh, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import type { Heartbeat } from '../../../../../contract/heartbeats.ts';
import { formatAge, formatDateTime } from '../../../lib/dates.ts';
import { HeartbeatStateBadge } from './HeartbeatStateBadge.tsx';
import { CardButton } from '../../../components/CardButton.tsx';
import { Copyable } from '../../../components/Copyable.tsx';

/** "1 day", "90 minutes", "2 hours": a number of minutes in the largest unit it is whole in. */
export function durationText(minutes: number): string {
  const [n, unit] = minutes > 0 && minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes > 0 && minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** What comes next, as the card says it. */
function nextText(h: Heartbeat): string {
  switch (h.state) {
    case 'new':
      return h.downAt ? `Run started: down at ${formatDateTime(h.downAt)} unless it finishes` : 'Waiting for the first ping';
    case 'up':
      return `Next ping due ${formatDateTime(h.nextDueAt)}`;
    case 'late':
      return `Late since ${formatDateTime(h.nextDueAt)}: down at ${formatDateTime(h.downAt)}`;
    case 'down':
      return 'Down: the next ping brings it up';
    case 'paused':
      return 'Paused: never goes down';
  }
}

/** One monitor: name, state, schedule, last ping, what comes next, and (for those who manage) its actions. */
export function HeartbeatCard({ heartbeat: h, canManage, onEdit, onTogglePause, onRenew, onDelete, busy }: { heartbeat: Heartbeat; canManage: boolean; onEdit: () => void; onTogglePause: () => void; onRenew: () => void; onDelete: () => void; busy: boolean }) {
  const paused = h.state === 'paused';
  return (
    <Paper withBorder p="md" radius="md" data-testid="heartbeat-card" data-name={h.name} data-state={h.state}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap={8} className="min-w-0">
          <Text fw={700} className="wrap-anywhere">
            {h.name}
          </Text>
          <HeartbeatStateBadge state={h.state} />
          <Badge variant="outline" color="gray">
            {PRIORITY_LABELS[h.priority]}
          </Badge>
          {h.alertId && (
            <Anchor component={Link} to={`/app/dashboard?alert=${encodeURIComponent(h.alertId)}`} size="sm">
              Open alert
            </Anchor>
          )}
        </Group>
        {canManage && (
          <Group gap="xs" wrap="wrap">
            <CardButton icon={IconEdit} variant="default" onClick={onEdit}>
              Edit
            </CardButton>
            <CardButton icon={paused ? IconPlayerPlay : IconPlayerPause} variant="default" onClick={onTogglePause} loading={busy}>
              {paused ? 'Resume' : 'Pause'}
            </CardButton>
            <CardButton icon={IconRefresh} variant="default" onClick={onRenew}>
              Renew URL
            </CardButton>
            <CardButton icon={IconTrash} variant="light" color="red" onClick={onDelete}>
              Delete
            </CardButton>
          </Group>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs" verticalSpacing={4} mt="xs">
        <Text size="sm" c="dimmed">
          Every {durationText(h.intervalMinutes)}, {durationText(h.graceMinutes)} grace
        </Text>
        <Text size="sm" c="dimmed">
          Client: {h.clientName ?? 'none'}
        </Text>
        <Text size="sm" c="dimmed" data-testid="heartbeat-last-ping">
          Last ping:{' '}
          {h.lastPingAt ? (
            <Tooltip label={formatDateTime(h.lastPingAt)}>
              <span>{formatAge(h.lastPingAt) === 'just now' ? 'just now' : `${formatAge(h.lastPingAt)} ago`}</span>
            </Tooltip>
          ) : (
            'never'
          )}
        </Text>
        <Text size="sm" c={h.state === 'late' || h.state === 'down' ? undefined : 'dimmed'} data-testid="heartbeat-next">
          {nextText(h)}
        </Text>
        <Text size="sm" c="dimmed">
          URL <Code>…/api/heartbeat/{h.tokenPrefix}…</Code>
        </Text>
        {h.emailAddress && (
          // For tools that can only send mail: a mail to it is a ping; a subject saying it failed, a failure.
          <Group gap={4} wrap="nowrap" className="min-w-0">
            <Text size="sm" c="dimmed">
              Or mail
            </Text>
            <Copyable value={h.emailAddress} label="mail address" />
          </Group>
        )}
        {h.lastFailAt && (
          <Text size="sm" c="dimmed">
            Last failure: {formatDateTime(h.lastFailAt)}
          </Text>
        )}
      </SimpleGrid>
    </Paper>
  );
}
