import { Code, Text } from '@mantine/core';
import { HEARTBEAT_MSG, pingCommands, type HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { ShownOnceModal } from '../../../components/ShownOnceModal.tsx';

/** Shown once after creating a monitor or renewing its URL: the URL, and how a job pings it. */
export function PingUrlModal({ revealed, onClose }: { revealed: HeartbeatWithPingUrl | null; onClose: () => void }) {
  if (!revealed) return null;
  const url = revealed.pingUrl;
  const commands = pingCommands(url);
  return (
    <ShownOnceModal title={`Ping URL: ${revealed.name}`} notice={HEARTBEAT_MSG.urlShownOnce} value={url} valueLabel="ping URL" doneLabel="I have copied the URL" onClose={onClose} data-testid="ping-url-modal">
      <div>
        <Text fw={600} size="sm">
          Linux, macOS (cron, systemd timers, scripts)
        </Text>
        <Text size="sm" c="dimmed">
          Run it at the end of the job, when it succeeded: <Code>backup.sh &amp;&amp; curl …</Code>
        </Text>
        <Copyable value={commands.curl} label="curl command" />
      </div>
      <div>
        <Text fw={600} size="sm">
          Windows (Task Scheduler, PowerShell)
        </Text>
        <Copyable value={commands.powershell} label="PowerShell command" />
      </div>
      <Text size="sm" c="dimmed">
        Add <Code>/start</Code> to the URL when the job starts (it must then finish within the grace time), and{' '}
        <Code>/fail</Code> when it fails: the monitor goes down at once, and what you POST becomes the alert&apos;s output.
      </Text>
    </ShownOnceModal>
  );
}
