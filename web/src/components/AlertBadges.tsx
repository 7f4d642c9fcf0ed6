import { Badge } from '@mantine/core';
import { PRIORITY_LABELS, STATUS_LABELS, type AlertPriority, type AlertStatus } from '../../../contract/alerts-text.ts';

export const PRIORITY_COLORS: Record<AlertPriority, string> = { critical: 'red', high: 'orange', medium: 'yellow', low: 'blue', info: 'gray' };
// One shade in both themes, each readable at 4.5:1 with the text autoContrast picks for it (white, or black on yellow).
const BADGE_SHADES: Record<AlertPriority, string> = { critical: 'red.6', high: 'orange.6', medium: 'yellow.5', low: 'blue.6', info: 'gray.7' };
export const STATUS_COLORS: Record<AlertStatus, string> = { new: 'blue', acknowledged: 'yellow', in_progress: 'violet', resolved: 'green', closed: 'gray' };

export function PriorityBadge({ priority }: { priority: AlertPriority }) {
  return (
    <Badge color={BADGE_SHADES[priority]} variant="filled" autoContrast size="sm" data-testid="priority-badge">
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
