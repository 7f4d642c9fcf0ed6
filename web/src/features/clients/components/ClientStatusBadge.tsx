import { Badge } from '@mantine/core';
import type { ClientStatus } from '../../../../../contract/clients.ts';

export const STATUS_LABELS: Record<ClientStatus, string> = { active: 'Active', inactive: 'Inactive', pending: 'Pending' };
const STATUS_COLORS: Record<ClientStatus, string> = { active: 'green', inactive: 'gray', pending: 'yellow' };

export function ClientStatusBadge({ status }: { status: ClientStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
