import { Badge, Tooltip } from '@mantine/core';
import { ALERT_MSG } from '../../../contract/alerts-text.ts';
import type { StreamState } from '../lib/event-stream.ts';

/** The live stream's state, or `offline` when the browser has no network or the last load from the API failed. */
export type LiveState = StreamState | 'offline';

const LABEL: Record<LiveState, string> = {
  live: ALERT_MSG.liveConnected,
  connecting: ALERT_MSG.liveReconnecting,
  reconnecting: ALERT_MSG.liveReconnecting,
  offline: ALERT_MSG.liveOffline,
};
const HINT: Record<LiveState, string> = {
  live: 'Changes appear as they happen',
  connecting: 'Connecting to live updates',
  reconnecting: 'Live updates were interrupted; reconnecting',
  offline: 'The server cannot be reached; what you see may be out of date',
};
const COLOR: Record<LiveState, string> = { live: 'green', connecting: 'gray', reconnecting: 'yellow', offline: 'red' };

/** Whether the page is receiving live updates. */
export function LiveIndicator({ state }: { state: LiveState }) {
  return (
    <Tooltip label={HINT[state]}>
      <Badge variant="dot" color={COLOR[state]} size="lg" data-testid="live-indicator" data-state={state} role="status">
        {LABEL[state]}
      </Badge>
    </Tooltip>
  );
}
