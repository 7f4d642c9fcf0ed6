import { Badge } from '@mantine/core';
import { IconTool, IconZzz } from '@tabler/icons-react';
import type { Alert } from '../../../../../contract/alerts.ts';
import { MAINTENANCE_MSG, SNOOZE_LABELS } from '../../../../../contract/maintenance-text.ts';
import { formatDateTime, formatTime } from '../../../lib/dates.ts';

/**
 * Issue 31's marks: "Maintenance" (it opened inside a maintenance window, so it paged nobody then) and "Snoozed until …"
 * while a snooze is in force (the server says until when; a past time means it is over). `compact`: the short form.
 */
export function HoldBadges({ alert, compact = false, now = Date.now() }: { alert: Pick<Alert, 'maintenanceWindowId' | 'snoozedUntil'>; compact?: boolean; now?: number }) {
  const snoozed = alert.snoozedUntil && Date.parse(alert.snoozedUntil) > now ? alert.snoozedUntil : null;
  return (
    <>
      {alert.maintenanceWindowId && (
        <Badge color="grape" variant="light" size="sm" leftSection={<IconTool size={12} aria-hidden />} className="no-shrink" data-testid="maintenance-badge">
          {MAINTENANCE_MSG.badge}
        </Badge>
      )}
      {snoozed && (
        <Badge color="cyan" variant="light" size="sm" leftSection={<IconZzz size={12} aria-hidden />} className="no-shrink" data-testid="snoozed-badge" title={SNOOZE_LABELS.until(formatDateTime(snoozed))}>
          {compact ? SNOOZE_LABELS.badge : SNOOZE_LABELS.until(formatTime(snoozed))}
        </Badge>
      )}
    </>
  );
}
