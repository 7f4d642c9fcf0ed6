import { Badge } from '@mantine/core';
import { HEARTBEAT_STATE_LABELS, type HeartbeatState } from '../../../../../contract/heartbeats.ts';

const COLORS: Record<HeartbeatState, string> = { new: 'gray', up: 'green', late: 'yellow', down: 'red', paused: 'blue' };

export function HeartbeatStateBadge({ state }: { state: HeartbeatState }) {
  return (
    <Badge color={COLORS[state]} variant={state === 'down' ? 'filled' : 'light'} data-testid="heartbeat-state">
      {HEARTBEAT_STATE_LABELS[state]}
    </Badge>
  );
}
