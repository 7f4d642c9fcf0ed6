import { Text, Timeline } from '@mantine/core';
import { IconArrowForwardUp, IconCheck, IconClockX, IconPlus, IconX, IconBan } from '@tabler/icons-react';
import { APPROVAL_LEVEL_LABELS, type ApprovalHistoryEntry } from '../../../../../contract/approvals.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { formatDateTime } from '../../../lib/dates.ts';

const ICONS: Record<ApprovalHistoryEntry['action'], typeof IconCheck> = {
  created: IconPlus,
  approved: IconCheck,
  rejected: IconX,
  delegated: IconArrowForwardUp,
  cancelled: IconBan,
  expired: IconClockX,
};
const COLORS: Record<ApprovalHistoryEntry['action'], string> = { created: 'blue', approved: 'green', rejected: 'red', delegated: 'violet', cancelled: 'gray', expired: 'orange' };

function entryText(e: ApprovalHistoryEntry) {
  const who = e.actor?.name ?? MSG.unknownUser;
  const level = e.level ? ` (${APPROVAL_LEVEL_LABELS[e.level]})` : '';
  switch (e.action) {
    case 'created':
      return `Created by ${who}`;
    case 'approved':
      return `Approved by ${who}${level}`;
    case 'rejected':
      return `Rejected by ${who}${level}`;
    case 'delegated':
      return `${who} delegated${level} to ${e.target?.name ?? MSG.unknownUser}`;
    case 'cancelled':
      return `Cancelled by ${who}`;
    case 'expired':
      return `Expired${level}`;
  }
}

/** What happened to a request, oldest first. */
export function RequestHistory({ history }: { history: ApprovalHistoryEntry[] }) {
  if (!history.length)
    return (
      <Text size="sm" c="dimmed">
        No history yet
      </Text>
    );
  return (
    <Timeline active={history.length - 1} bulletSize={24} lineWidth={2} data-testid="request-history">
      {history.map((e, i) => {
        const Icon = ICONS[e.action];
        return (
          <Timeline.Item key={i} bullet={<Icon size={14} />} color={COLORS[e.action]} title={<Text size="sm" fw={600} className="wrap-anywhere">{entryText(e)}</Text>} data-testid="request-history-entry">
            {e.comment && (
              <Text size="sm" c="dimmed" className="pre-wrap">
                {e.comment}
              </Text>
            )}
            <Text size="xs" c="dimmed" mt={2}>
              {formatDateTime(e.at)}
            </Text>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
