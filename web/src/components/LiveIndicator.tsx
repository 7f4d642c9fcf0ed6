import { Badge } from '@mantine/core';
import { ALERT_MSG } from '../../../contract/alerts.ts';
import type { StreamState } from '../lib/event-stream.ts';

/** Whether the page is receiving live updates. */
export function LiveIndicator({ state }: { state: StreamState }) {
  const live = state === 'live';
  return (
    <Badge variant="dot" color={live ? 'green' : 'gray'} size="lg" data-testid="live-indicator" data-state={state}>
      {live ? ALERT_MSG.liveConnected : ALERT_MSG.liveReconnecting}
    </Badge>
  );
}
