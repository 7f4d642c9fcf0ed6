import { memo, Suspense } from 'react';
import { Anchor, Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconClockExclamation, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PAGING_MSG } from '../../../../../contract/paging-text.ts';
import { PRIORITY_COLORS, PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { SelectBox } from './SelectBox.tsx';
import { AlertAge, CardHoldBadges, clientHref, Occurrences, PagedNobodyBadge, TicketLink, type AlertCardProps } from './AlertCardParts.tsx';

/**
 * One alert in a list, roomy: badges, a title of up to two lines, source and client, assignee. Its title is the
 * button that opens the detail modal and stretches over the whole card; the checkbox and the client link sit above
 * that, so each control is its own (no control inside another).
 */
export const AlertCard = memo(function AlertCard({ alert, onOpen, now = Date.now(), selected, onSelect, active }: AlertCardProps) {
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      className="alert-card"
      data-testid="alert-card"
      data-alert-id={alert.id}
      data-active={active || undefined}
      style={{ borderLeft: `4px solid var(--mantine-color-${PRIORITY_COLORS[alert.priority]}-filled)` }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {onSelect && (
          <span className="above-stretch">
            <SelectBox label={`Select ${alert.title}`} checked={!!selected} onChange={(on) => onSelect(alert, on)} testId="alert-select" />
          </span>
        )}
        <Stack gap={4} className="min-w-0" style={{ flex: 1 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap={6} wrap="wrap">
              <PriorityBadge priority={alert.priority} />
              <StatusBadge status={alert.status} />
              {alert.overdueAt && (
                <Badge color="red" variant="filled" size="sm" leftSection={<IconClockExclamation size={12} />} data-testid="overdue-badge">
                  {PAGING_MSG.overdue}
                </Badge>
              )}
              {alert.pagedNobody && (
                <Suspense fallback={null}>
                  <PagedNobodyBadge mark={alert.pagedNobody} className="above-stretch" />
                </Suspense>
              )}
              <CardHoldBadges alert={alert} now={now} />
              <Occurrences count={alert.occurrences} />
              <TicketLink ticket={alert.ticket} prefix="Ticket " />
            </Group>
            <AlertAge createdAt={alert.createdAt} now={now} />
          </Group>
          <UnstyledButton onClick={() => onOpen(alert)} className="stretched-button" data-testid="alert-open">
            <Text fw={600} className="wrap-anywhere" lineClamp={2}>
              {alert.title}
            </Text>
          </UnstyledButton>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" className="wrap-anywhere min-w-0" lineClamp={1}>
              {alert.source}
              {alert.clientId && alert.clientName && (
                <>
                  {' · '}
                  <Anchor component={Link} to={clientHref(alert.clientId)} size="sm" className="above-stretch" data-testid="alert-client">
                    {alert.clientName}
                  </Anchor>
                </>
              )}
            </Text>
            {alert.assigneeName && (
              <Group gap={4} wrap="nowrap" className="no-shrink" data-testid="alert-assignee">
                <IconUser size={14} aria-label="Assigned to" />
                <Text size="xs" truncate maw={160}>
                  {alert.assigneeName}
                </Text>
              </Group>
            )}
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
});
