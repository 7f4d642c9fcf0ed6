import { Alert as Callout, Anchor, Badge, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconBellOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ALERT_MSG } from '../../../../../contract/alerts-text.ts';
import type { Alert } from '../../../../../contract/alerts.ts';
import { PAGING_MSG } from '../../../../../contract/paging-text.ts';

/**
 * The mark of an alert whose escalation paged nobody (issue 25), with why on hover or touch and, for screen readers,
 * in its text. Orange `light`: Mantine's light variant keeps its contrast in both themes. `iconOnly` (the compact
 * card, issue 32, where the title needs the room) shows the crossed-out bell alone, its words going to the tooltip.
 */
export function PagedNobodyBadge({ mark, className, iconOnly = false }: { mark: NonNullable<Alert['pagedNobody']>; className?: string; iconOnly?: boolean }) {
  const reason = PAGING_MSG.pagedNobodyReasons[mark.reason];
  return (
    <Tooltip label={iconOnly ? `${PAGING_MSG.pagedNobody}: ${reason}` : reason} multiline w={280} openDelay={150} events={{ hover: true, focus: true, touch: true }}>
      {iconOnly ? (
        <Badge color="orange" variant="light" size="sm" px={4} className={className} data-testid="paged-nobody-badge">
          <IconBellOff size={12} aria-hidden style={{ display: 'block' }} />
          <VisuallyHidden>
            {PAGING_MSG.pagedNobody}: {reason}
          </VisuallyHidden>
        </Badge>
      ) : (
        <Badge color="orange" variant="light" size="sm" leftSection={<IconBellOff size={12} aria-hidden />} className={className} data-testid="paged-nobody-badge">
          {PAGING_MSG.pagedNobody}
          <VisuallyHidden>: {reason}</VisuallyHidden>
        </Badge>
      )}
    </Tooltip>
  );
}

/**
 * "3 alerts in the last 24 h paged nobody — set up an escalation policy": owners and admins get the way to the
 * policies, the others whom to ask. Nothing while the figures load, fail (the stat cards say so) or count none.
 */
export function PagedNobodyBanner({ count, canManage }: { count: number | undefined; canManage: boolean }) {
  if (!count || count <= 0) return null;
  return (
    <Callout color="orange" icon={<IconBellOff size={18} aria-hidden />} mb="md" p="sm" data-testid="paged-nobody-banner">
      <Text size="sm" className="wrap-anywhere">
        {ALERT_MSG.pagedNobodyCount(count)} —{' '}
        {canManage ? (
          <Anchor component={Link} to="/app/escalation-policies" size="sm" fw={600} data-testid="paged-nobody-action">
            {ALERT_MSG.pagedNobodyAction}
          </Anchor>
        ) : (
          ALERT_MSG.pagedNobodyAsk
        )}
      </Text>
    </Callout>
  );
}
