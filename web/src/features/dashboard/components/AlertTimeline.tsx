import { Text, Timeline, Title } from '@mantine/core';
import { IconBolt, IconCheck, IconCircleCheck, IconLock, IconNote, IconPlayerPlay, IconRepeat, IconUserPlus } from '@tabler/icons-react';
import type { TimelineEntry } from '../../../../../contract/alerts.ts';
import { formatDateTime } from '../../../lib/dates.ts';

function timelineText(e: TimelineEntry) {
  switch (e.kind) {
    case 'triggered':
      return `Triggered by ${e.actorName}`;
    case 'repeated':
      return `Repeated: seen ${String(e.detail.occurrences)} times`;
    case 'acknowledged':
      return `Acknowledged by ${e.actorName}`;
    case 'started':
      return `${e.actorName} started work`;
    case 'resolved':
      return `Resolved by ${e.actorName}`;
    case 'closed':
      return `Closed by ${e.actorName}`;
    case 'assigned':
      return `${e.actorName} assigned it to ${String(e.detail.assigneeName ?? 'someone')}`;
    case 'note':
      return `${e.actorName} added a note`;
  }
}

const TIMELINE_ICONS: Record<TimelineEntry['kind'], typeof IconBolt> = {
  triggered: IconBolt,
  repeated: IconRepeat,
  acknowledged: IconCheck,
  started: IconPlayerPlay,
  resolved: IconCircleCheck,
  closed: IconLock,
  assigned: IconUserPlus,
  note: IconNote,
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
