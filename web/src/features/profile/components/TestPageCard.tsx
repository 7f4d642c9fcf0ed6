import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { PERSONAL_CHANNEL_LABELS, PERSONAL_CHANNELS, type PersonalChannel, type TestPageResult } from '../../../../../contract/profile.ts';
import { refusalReason } from '../../../lib/api.ts';
import { sendTestPage } from '../api/send-test-page.ts';
import { useServerConfig } from '../../../lib/server-config.ts';

const OUTCOME: Record<TestPageResult['outcome'], { label: string; color: string }> = {
  sent: { label: 'Sent', color: 'green' },
  skipped: { label: 'Not sent', color: 'orange' },
  failed: { label: 'Failed', color: 'red' },
  not_configured: { label: 'Not configured', color: 'gray' },
};

type Shown = { outcome: TestPageResult['outcome']; reason: string | null } | { outcome: 'error'; reason: string };

/** "Send me a test page" (issue 27): one button per channel, each showing what became of its last test page. */
export function TestPageCard() {
  // A voice call is offered only where the server can place one.
  const serverConfig = useServerConfig();
  const [shown, setShown] = useState<Partial<Record<PersonalChannel, Shown>>>({});
  const [busy, setBusy] = useState<PersonalChannel | null>(null);

  const send = async (channel: PersonalChannel) => {
    setBusy(channel);
    try {
      const r = await sendTestPage(channel);
      setShown((s) => ({ ...s, [channel]: { outcome: r.outcome, reason: r.reason } }));
    } catch (e) {
      setShown((s) => ({ ...s, [channel]: { outcome: 'error', reason: refusalReason(e) ?? 'The test page could not be sent. Please try again.' } }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" data-testid="test-page">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">Send me a test page</Title>
          <Text size="sm" c="dimmed">
            See that pages reach you: a test goes out as a page would, by your saved preferences.
          </Text>
        </div>
        {PERSONAL_CHANNELS.filter((c) => c !== 'voice' || serverConfig.data?.voiceEnabled).map((channel) => {
          const s = shown[channel];
          const look = s ? (s.outcome === 'error' ? { label: 'Failed', color: 'red' } : OUTCOME[s.outcome]) : null;
          return (
            <Group key={channel} gap="sm" wrap="nowrap" align="flex-start" data-testid={`test-page-${channel}`}>
              <Button variant="default" size="xs" w={140} style={{ flexShrink: 0 }} leftSection={<IconSend size={14} />} loading={busy === channel} disabled={busy !== null && busy !== channel} onClick={() => send(channel)}>
                {PERSONAL_CHANNEL_LABELS[channel]}
              </Button>
              {look && (
                <Stack gap={2} role="status" mt={2}>
                  <Badge color={look.color} variant="light" data-testid={`test-page-${channel}-outcome`}>
                    {look.label}
                  </Badge>
                  {s?.reason && (
                    <Text size="sm" c="dimmed" data-testid={`test-page-${channel}-reason`}>
                      {s.reason}
                    </Text>
                  )}
                </Stack>
              )}
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
