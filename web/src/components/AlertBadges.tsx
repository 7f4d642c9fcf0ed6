import { Badge } from '@mantine/core';
import { PRIORITY_LABELS, STATUS_LABELS, type AlertPriority, type AlertStatus } from '../../../contract/alerts.ts';

export const PRIORITY_COLORS: Record<AlertPriority, string> = { critical: 'red', high: 'orange', medium: 'yellow', low: 'blue', info: 'gray' };
export const STATUS_COLORS: Record<AlertStatus, string> = { new: 'blue', acknowledged: 'yellow', in_progress: 'violet', resolved: 'green', closed: 'gray' };

export function PriorityBadge({ priority }: { priority: AlertPriority }) {
  return (
    <Badge color={PRIORITY_COLORS[priority]} variant="filled" autoContrast size="sm" data-testid="priority-badge">
      {PRIORITY_LABELS[priority]}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: AlertStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" size="sm" data-testid="status-badge">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
