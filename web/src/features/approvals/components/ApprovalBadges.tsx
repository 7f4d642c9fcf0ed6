import { Badge } from '@mantine/core';
import { APPROVAL_TYPE_LABELS, type ApprovalLevelStatus, type ApprovalStatus, type ApprovalType } from '../../../../../contract/approvals.ts';

export const STATUS_LABELS: Record<ApprovalLevelStatus, string> = {
  waiting: 'Waiting',
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  cancelled: 'Cancelled',
};
// A badge in a narrow table cell would otherwise cut its label ("APPROV…").
const FULL_WIDTH = { minWidth: 'max-content' } as const;
const STATUS_COLORS: Record<ApprovalLevelStatus, string> = { waiting: 'gray', pending: 'yellow', approved: 'green', rejected: 'red', expired: 'orange', cancelled: 'gray' };

/** A request's status, or one level's. */
export function ApprovalStatusBadge({ status, size = 'sm' }: { status: ApprovalStatus | ApprovalLevelStatus; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" size={size} className="no-shrink" style={FULL_WIDTH} data-testid="approval-status" data-status={status}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

export function ApprovalTypeBadge({ type }: { type: ApprovalType }) {
  return (
    <Badge color="gray" variant="outline" size="sm" className="no-shrink" style={FULL_WIDTH}>
      {APPROVAL_TYPE_LABELS[type]}
    </Badge>
  );
}

/** Active or Inactive, for a policy. */
export function PolicyStatusBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? 'green' : 'gray'} variant="light" size="sm" style={FULL_WIDTH} data-testid="approval-policy-status">
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}
