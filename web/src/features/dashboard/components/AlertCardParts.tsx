import { lazy, Suspense } from 'react';
import { Anchor, Group, Text, Tooltip } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import type { Alert } from '../../../../../contract/alerts.ts';
import { formatAge, formatDateTime } from '../../../lib/dates.ts';

// Shared by the compact card (the dashboard's first paint), the roomy card and the table, which load when chosen.

/** What an alert card (compact or roomy) is given. */
export interface AlertCardProps {
  alert: Alert;
  onOpen: (a: Alert) => void;
  /** The current time, for the age (the list ticks it once a minute). */
  now?: number;
  /** With a selection checkbox (dashboard), its state and toggle. */
  selected?: boolean;
  onSelect?: (a: Alert, selected: boolean) => void;
  /** The keyboard cursor is on this card. */
  active?: boolean;
}

// Few alerts carry the mark: its code loads when one does (issue 14's 250 kB budget for the dashboard).
export const PagedNobodyBadge = lazy(async () => ({ default: (await import('./PagedNobody.tsx')).PagedNobodyBadge }));
// The same for the Maintenance and Snoozed marks (issue 31).
const HoldBadgesLazy = lazy(async () => ({ default: (await import('./HoldBadges.tsx')).HoldBadges }));

/** An alert's Maintenance and Snoozed marks, when it carries one (loaded then). */
export function CardHoldBadges({ alert, compact, now }: { alert: Alert; compact?: boolean; now?: number }) {
  if (!alert.maintenanceWindowId && !alert.snoozedUntil) return null;
  return (
    <Suspense fallback={null}>
      <HoldBadgesLazy alert={alert} compact={compact} now={now} />
    </Suspense>
  );
}

/** Where a client's details open (the clients page reads `?client=`). */
export const clientHref = (clientId: string) => `/clients?client=${encodeURIComponent(clientId)}`;

/** How old an alert is, with the exact time on hover and for screen readers. */
export function AlertAge({ createdAt, now }: { createdAt: string; now: number }) {
  const exact = formatDateTime(createdAt);
  return (
    <Tooltip label={exact} openDelay={300}>
      <Text size="xs" c="dimmed" component="time" dateTime={createdAt} data-testid="alert-age" aria-label={`${formatAge(createdAt, now)} ago, ${exact}`} className="no-shrink">
        {formatAge(createdAt, now)}
      </Text>
    </Tooltip>
  );
}

/** How many times the alert fired, when more than once. */
export function Occurrences({ count }: { count: number }) {
  if (count <= 1) return null;
  return (
    <Group gap={2} c="dimmed" wrap="nowrap" title={`Fired ${count} times`} data-testid="alert-occurrences" className="no-shrink">
      <IconRepeat size={14} aria-hidden />
      <Text size="xs">×{count}</Text>
    </Group>
  );
}

/**
 * Issue 30: the alert's ticket in the PSA: its number, a link into the PSA (a new tab) when the PSA gave one, above
 * the card's stretched button. `prefix`: the word before the number where there is room.
 */
export function TicketLink({ ticket, prefix = '', size = 'xs' }: { ticket: Alert['ticket']; prefix?: string; size?: 'xs' | 'sm' }) {
  if (!ticket) return null;
  const text = `${prefix}#${ticket.number}`;
  const shared = { size, className: 'above-stretch no-shrink', 'data-testid': 'alert-ticket', title: `PSA ticket #${ticket.number}` } as const;
  return ticket.url && /^https?:\/\//i.test(ticket.url) ? (
    <Anchor href={ticket.url} target="_blank" rel="noopener noreferrer" {...shared}>
      {text}
    </Anchor>
  ) : (
    <Text span {...shared}>
      {text}
    </Text>
  );
}
