import { memo, Suspense } from 'react';
import { Anchor, Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { IconClockExclamation, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PAGING_MSG } from '../../../../../contract/paging-text.ts';
import { PRIORITY_COLORS, PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { SelectBox } from './SelectBox.tsx';
import { AlertAge, CardHoldBadges, clientHref, Occurrences, PagedNobodyBadge, TicketLink, type AlertCardProps } from './AlertCardParts.tsx';
import classes from './AlertCompactCard.module.css';

/**
 * One alert on one line (three on a narrow list), the dashboard's default: priority, status, title, its marks,
 * client, assignee, age. It is an alert card like the roomy one (the same test ids, the title's button stretched over
 * the card, the checkbox and links above it), so the keyboard, the selection and live updates treat both alike; the
 * whole title shows on hover and in the detail.
 */
export const AlertCompactCard = memo(function AlertCompactCard({ alert, onOpen, now = Date.now(), selected, onSelect, active }: AlertCardProps) {
  return (
    <div
      className={`alert-card ${classes.card}`}
      data-testid="alert-card"
      data-density="compact"
      data-alert-id={alert.id}
      data-active={active || undefined}
      // The marks sit above the title's stretched button (their reasons show on hover): a click on one opens the
      // alert all the same, as a click anywhere on the line but its controls does.
      onClick={(e) => {
        if (e.target instanceof Element && !e.target.closest('a, button, input, label')) onOpen(alert);
      }}
      style={{ borderLeftColor: `var(--mantine-color-${PRIORITY_COLORS[alert.priority]}-filled)` }}
    >
      {onSelect && (
        <span className={`above-stretch ${classes.select}`}>
          <SelectBox label={`Select ${alert.title}`} checked={!!selected} onChange={(on) => onSelect(alert, on)} testId="alert-select" />
        </span>
      )}
      <span className={classes.priority}>
        <PriorityBadge priority={alert.priority} />
      </span>
      <span className={classes.status}>
        <StatusBadge status={alert.status} />
      </span>
      <div className={classes.title}>
        <UnstyledButton onClick={() => onOpen(alert)} className={`stretched-button ${classes.open}`} title={alert.title} data-testid="alert-open">
          {alert.title}
        </UnstyledButton>
      </div>
      <div className={classes.meta}>
        <div className={classes.marks}>
          {alert.overdueAt && (
            <Badge color="red" variant="filled" size="sm" leftSection={<IconClockExclamation size={12} />} className="no-shrink" data-testid="overdue-badge">
              {PAGING_MSG.overdue}
            </Badge>
          )}
          {alert.pagedNobody && (
            <Suspense fallback={null}>
              <PagedNobodyBadge mark={alert.pagedNobody} iconOnly className="above-stretch no-shrink" />
            </Suspense>
          )}
          <CardHoldBadges alert={alert} compact now={now} />
          <Occurrences count={alert.occurrences} />
          <TicketLink ticket={alert.ticket} />
        </div>
        <div className={classes.client}>
          {alert.clientId && alert.clientName && (
            <Anchor component={Link} to={clientHref(alert.clientId)} size="sm" truncate="end" className="above-stretch" data-testid="alert-client">
              {alert.clientName}
            </Anchor>
          )}
        </div>
        <div className={classes.assignee}>
          {alert.assigneeName && (
            <Group gap={4} wrap="nowrap" data-testid="alert-assignee">
              <IconUser size={14} aria-label="Assigned to" className="no-shrink" />
              <Text size="xs" truncate="end">
                {alert.assigneeName}
              </Text>
            </Group>
          )}
        </div>
      </div>
      {/* Above the title's stretched button, like the marks, so its exact time shows on hover; a click opens the alert. */}
      <span className={`above-stretch ${classes.age}`}>
        <AlertAge createdAt={alert.createdAt} now={now} />
      </span>
    </div>
  );
});
