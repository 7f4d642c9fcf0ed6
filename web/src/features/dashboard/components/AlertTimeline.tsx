import { Text, Timeline, Title } from '@mantine/core';
import {
  IconBellOff,
  IconBolt,
  IconBellRinging,
  IconTool,
  IconZzz,
  IconZzzOff,
  IconCheck,
  IconCircleCheck,
  IconClockExclamation,
  IconLock,
  IconMessage,
  IconNote,
  IconPlayerPlay,
  IconRepeat,
  IconSend,
  IconSpeakerphone,
  IconTicket,
  IconUserPlus,
} from '@tabler/icons-react';
import { viaPhrase, type TimelineEntry } from '../../../../../contract/alerts.ts';
import { formatDateTime } from '../../../lib/dates.ts';

/** "from Slack " for an action taken from a chat (its entry's `via`), else nothing. */
const viaText = (e: TimelineEntry) => viaPhrase(e.detail.via);

function timelineText(e: TimelineEntry) {
  switch (e.kind) {
    case 'triggered':
      return `Triggered by ${e.actorName}`;
    case 'repeated':
      return `Repeated: seen ${String(e.detail.occurrences)} times`;
    case 'acknowledged':
      return `Acknowledged ${viaText(e)}by ${e.actorName}`;
    case 'started':
      return `${e.actorName} started work`;
    case 'resolved':
      return `Resolved ${viaText(e)}by ${e.actorName}`;
    case 'closed':
      return `Closed by ${e.actorName}`;
    case 'assigned':
      return `${e.actorName} assigned it to ${String(e.detail.assigneeName ?? 'someone')}`;
    case 'note':
      return `${e.actorName} added a note`;
    case 'escalated': {
      const names = Array.isArray(e.detail.names) ? (e.detail.names as string[]) : [];
      const who = names.length ? names.join(', ') : 'nobody (no one assigned or on call)';
      return e.detail.repeat ? `Overdue: level ${String(e.detail.level)} paged again: ${who}` : `Level ${String(e.detail.level)} paged: ${who}`;
    }
    case 'paged': {
      const channel = CHANNEL_NAMES[String(e.detail.channel)] ?? String(e.detail.channel);
      const name = String(e.detail.userName ?? 'someone');
      // A page sent with a reason was the person's next channel, paged because another kept failing.
      if (e.detail.outcome === 'sent') return e.detail.reason ? `${channel} sent to ${name}: ${String(e.detail.reason)}` : `${channel} sent to ${name}`;
      if (e.detail.outcome === 'summarized') return `${channel} to ${name}: ${String(e.detail.reason ?? 'in a summary page')}`;
      if (e.detail.outcome === 'skipped') return `${channel} to ${name} skipped: ${String(e.detail.reason ?? '')}`;
      return `${channel} to ${name} failed: ${String(e.detail.reason ?? '')}`;
    }
    case 'overdue':
      return `Overdue: not acknowledged within ${String(e.detail.minutes)} ${e.detail.minutes === 1 ? 'minute' : 'minutes'}`;
    case 'unrouted':
      return String(e.detail.reason ?? 'Nobody was paged');
    case 'maintenance':
      return e.detail.windowName ? `Opened during maintenance window "${String(e.detail.windowName)}": nobody paged` : 'Opened during a maintenance window: nobody paged';
    case 'snoozed':
      return `Snoozed by ${e.actorName} until ${formatDateTime(String(e.detail.until))}`;
    case 'unsnoozed':
      return `Unsnoozed by ${e.actorName}`;
    case 'released':
      return e.detail.reason === 'snooze' ? 'Snooze over: escalation starts from level 1' : 'Maintenance over: escalation starts from level 1';
    case 'posted':
      return `${e.detail.level ? `Level ${String(e.detail.level)}: posted` : 'Posted'} to ${POST_TARGETS[String(e.detail.type)] ?? 'Microsoft Teams'}: ${String(e.detail.destination ?? '')}${e.detail.channel ? ` (${String(e.detail.channel)})` : ''}`;
    case 'ticket':
      // Issue 30: what happened to its PSA ticket (opened, noted, closed, not opened and why), as the server wrote it.
      return String(e.detail.text ?? 'PSA ticket');
  }
}

const POST_TARGETS: Record<string, string> = { slack: 'Slack', teams: 'Microsoft Teams', webhook: 'Webhook' };

const CHANNEL_NAMES: Record<string, string> = { email: 'Email', push: 'Push notification', sms: 'SMS', voice: 'Voice call' };

const TIMELINE_ICONS: Record<TimelineEntry['kind'], typeof IconBolt> = {
  triggered: IconBolt,
  repeated: IconRepeat,
  acknowledged: IconCheck,
  started: IconPlayerPlay,
  resolved: IconCircleCheck,
  closed: IconLock,
  assigned: IconUserPlus,
  note: IconNote,
  escalated: IconSpeakerphone,
  paged: IconSend,
  overdue: IconClockExclamation,
  unrouted: IconBellOff,
  maintenance: IconTool,
  snoozed: IconZzz,
  unsnoozed: IconZzzOff,
  released: IconBellRinging,
  ticket: IconTicket,
  posted: IconMessage,
};

/** What happened to the alert and who did it, oldest first. */
export function AlertTimeline({ timeline }: { timeline: TimelineEntry[] }) {
  return (
    <div>
      <Title order={4} mb="sm">
        Timeline
      </Title>
      <Timeline active={timeline.length} bulletSize={24} lineWidth={2} data-testid="alert-timeline">
        {timeline.map((e) => {
          const Icon = TIMELINE_ICONS[e.kind];
          return (
            <Timeline.Item key={e.id} bullet={<Icon size={13} />} title={<Text size="sm" fw={600}>{timelineText(e)}</Text>}>
              <Text size="xs" c="dimmed">
                {formatDateTime(e.at)}
              </Text>
            </Timeline.Item>
          );
        })}
      </Timeline>
    </div>
  );
}
