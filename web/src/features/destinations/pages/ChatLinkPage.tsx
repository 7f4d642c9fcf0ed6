import { Alert, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBrandSlack, IconCheck, IconCircleCheck, IconEye } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { STATUS_LABELS, type AlertStatus } from '../../../../../contract/alerts.ts';
import { DESTINATION_MSG, type ChatLinkInfo } from '../../../../../contract/destinations.ts';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useChatLink, useUseChatLink } from '../api/chat-links.ts';

const TITLES: Record<ChatLinkInfo['kind'], string> = {
  'alert.acknowledge': 'Acknowledge alert',
  'alert.resolve': 'Resolve alert',
  'slack.link': 'Link your Slack account',
};

const errorText = (err: unknown, fallback: string) => (err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : fallback);

/**
 * /app/chat/:token, a one-time link from a chat post: a Teams card's Acknowledge or Resolve button (acts as the
 * signed-in member, "from Teams") or the "link your account" link Slack showed an unlinked user. Opening it only
 * describes; the button acts. The guard has signed the person in first (and brought them back here).
 */
export function ChatLinkPage() {
  const { token = '' } = useParams();
  const info = useChatLink(token);
  const use = useUseChatLink(token);

  if (info.isPending) return <Loading />;
  if (info.isError)
    return (
      <Paper withBorder p="xl" radius="md" maw={560} mx="auto" data-testid="chat-link-invalid">
        <Stack align="center" ta="center">
          <ThemeIcon size={48} radius="xl" color="gray" variant="light">
            <IconAlertTriangle />
          </ThemeIcon>
          <Title order={1} size="h3">
            {errorText(info.error, 'This page could not be loaded.')}
          </Title>
          <Button component={Link} to="/app/dashboard" variant="light">
            Dashboard
          </Button>
        </Stack>
      </Paper>
    );

  const d = info.data;
  const isAlert = d.kind !== 'slack.link';
  return (
    <Paper withBorder p="xl" radius="md" maw={560} mx="auto" data-testid="chat-link-page" data-kind={d.kind}>
      <Stack gap="md">
        <Title order={1} size="h3">
          {TITLES[d.kind]}
        </Title>
        {isAlert ? (
          <Text className="wrap-anywhere">
            <b>{d.alertTitle}</b> ({d.tenantName}). Status: {STATUS_LABELS[d.alertStatus as AlertStatus] ?? d.alertStatus}.
          </Text>
        ) : (
          <Text>
            Slack buttons of <b>{d.tenantName}</b> will act as your Alertdesk account: acknowledgements and resolutions are recorded in your name, from Slack.
          </Text>
        )}
        {use.isSuccess ? (
          <Alert color="green" icon={<IconCheck />} data-testid="chat-link-done">
            {use.data.message}
          </Alert>
        ) : !d.usable ? (
          <Alert color="gray" icon={<IconAlertTriangle />}>
            {DESTINATION_MSG.linkUsed}
          </Alert>
        ) : (
          <>
            {use.isError && (
              <Alert color="red" icon={<IconAlertTriangle />} role="alert">
                {errorText(use.error, 'That did not work. Please try again.')}
              </Alert>
            )}
            <Button size="md" loading={use.isPending} onClick={() => use.mutate()} leftSection={isAlert ? <IconCircleCheck size={18} /> : <IconBrandSlack size={18} />} data-testid="chat-link-act">
              {TITLES[d.kind]}
            </Button>
          </>
        )}
        {d.alertId && (
          <Group>
            <Button component={Link} to={`/app/dashboard?alert=${encodeURIComponent(d.alertId)}`} variant="subtle" leftSection={<IconEye size={16} />}>
              Open the alert
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
