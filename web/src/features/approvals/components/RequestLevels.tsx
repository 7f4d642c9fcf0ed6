import { Group, Paper, Stack, Text } from '@mantine/core';
import { APPROVAL_LEVEL_LABELS, type ApprovalLevel } from '../../../../../contract/approvals.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { ApprovalStatusBadge } from './ApprovalBadges.tsx';
import type { PeopleLookup } from './people.ts';

const DECIDED: Partial<Record<ApprovalLevel['status'], string>> = { approved: 'Approved by', rejected: 'Rejected by', cancelled: 'Cancelled by' };

/** Each level of a request: its status, approvers, who decided, when, and their comment. */
export function RequestLevels({ levels, current, person }: { levels: ApprovalLevel[]; current: number; person: PeopleLookup }) {
  return (
    <Stack gap="xs" data-testid="request-levels">
      {levels.map((l, i) => (
        <Paper
          key={l.level}
          withBorder
          radius="md"
          p="sm"
          data-testid={`request-level-${l.level}`}
          style={i === current && l.status === 'pending' ? { borderColor: 'var(--mantine-color-yellow-filled)' } : undefined}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <div className="min-w-0">
              <Text fw={600} size="sm">
                Level {i + 1}: {APPROVAL_LEVEL_LABELS[l.level]}
              </Text>
              <Text size="xs" c="dimmed">
                Expires {l.timeToExpire} {l.timeToExpire === 1 ? 'hour' : 'hours'} after it is reached
              </Text>
            </div>
            <ApprovalStatusBadge status={l.status} />
          </Group>
          <Text size="sm" mt={6} className="wrap-anywhere" data-testid="request-level-approvers">
            <Text span c="dimmed" size="sm">
              {l.approvers.length === 1 ? 'Approver: ' : 'Approvers: '}
            </Text>
            {l.approvers.map((id) => person(id).name).join(', ')}
          </Text>
          {(l.approvedBy || l.approvedAt) && (
            <Text size="sm" className="wrap-anywhere" data-testid="request-level-decision">
              <Text span c="dimmed" size="sm">
                {DECIDED[l.status] ?? 'Decided by'}{' '}
              </Text>
              {person(l.approvedBy).name}
              <Text span c="dimmed" size="sm">
                {' '}
                on {formatDateTime(l.approvedAt)}
              </Text>
            </Text>
          )}
          {l.comments && (
            <Text size="sm" mt={4} fs="italic" className="pre-wrap" data-testid="request-level-comment">
              “{l.comments}”
            </Text>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
