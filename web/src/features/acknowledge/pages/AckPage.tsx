import { Alert, Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { PAGING_MSG } from '../../../../../contract/paging.ts';
import { Loading } from '../../../components/Loading.tsx';
import { PublicCardPage } from '../../../components/PublicCardPage.tsx';
import { ApiError } from '../../../lib/api.ts';
import { PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { useAckLink, useAcknowledgeFromLink } from '../api/ack-link.ts';

/** "Wed 25 Nov, 03:12 GMT+1 (14 min ago)": when the alert opened, in the paged person's zone, and how long ago. */
function openedAt(iso: string, timeZone: string) {
  const at = new Date(iso);
  let when: string;
  try {
    when = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short' }).format(at);
  } catch {
    when = at.toUTCString();
  }
  const minutes = Math.max(0, Math.floor((Date.now() - at.getTime()) / 60_000));
  const ago = minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : minutes < 48 * 60 ? `${Math.floor(minutes / 60)} h ago` : `${Math.floor(minutes / 1440)} days ago`;
  return `${when} (${ago})`;
}

/**
 * /ack/:token, the Acknowledge link of an email, SMS or push page: shows the alert and acknowledges it as the paged
 * person when they press the button (opening the link alone never acknowledges: mail scanners follow links).
 */
export function AckPage() {
  const { token = '' } = useParams();
  const link = useAckLink(token);
  const ack = useAcknowledgeFromLink(token);

  let body;
  if (link.isPending) body = <Loading />;
  else if (link.isError) {
    const invalid = link.error instanceof ApiError && link.error.status > 0 && link.error.status < 500;
    body = (
      <Stack align="center" ta="center" data-testid="ack-invalid">
        <ThemeIcon size={48} radius="xl" color="gray" variant="light">
          <IconAlertTriangle />
        </ThemeIcon>
        <Title order={1} size="h3">{invalid ? link.error.message : 'This page could not be loaded.'}</Title>
        {invalid ? (
          <Button component={Link} to="/app/dashboard" variant="light">
            Go to dashboard
          </Button>
        ) : (
          <Button onClick={() => link.refetch()} variant="light">
            Retry
          </Button>
        )}
      </Stack>
    );
  } else {
    const a = link.data;
    const done = ack.isSuccess;
    const refused = ack.error instanceof ApiError && ack.error.status > 0 && ack.error.status < 500 ? ack.error.message : ack.isError ? PAGING_MSG.ackFailed : null;
    body = (
      <Stack gap="md" data-testid="ack-page">
        {a.clientName && (
          <Text fw={700} size="lg" className="wrap-anywhere" data-testid="ack-client">
            {a.clientName}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {a.tenantName} · paged {a.personName}
        </Text>
        <Group gap={6}>
          <PriorityBadge priority={a.priority} />
          <StatusBadge status={done ? 'acknowledged' : a.status} />
        </Group>
        <Title order={1} size="h3" className="wrap-anywhere">
          {a.title}
        </Title>
        {a.description && (
          <Text size="sm" className="wrap-anywhere" style={{ whiteSpace: 'pre-wrap' }} lineClamp={8}>
            {a.description}
          </Text>
        )}
        <Text size="sm" c="dimmed" className="wrap-anywhere">
          {a.source} · opened {openedAt(a.createdAt, a.timeZone)}
        </Text>
        {done ? (
          <Alert color="green" icon={<IconCheck />} data-testid="ack-done">
            {ack.data.message}
          </Alert>
        ) : refused ? (
          <Alert color="red" icon={<IconAlertTriangle />} role="alert">
            {refused}
          </Alert>
        ) : !a.usable ? (
          <Alert color="gray">{PAGING_MSG.ackLinkUsed}</Alert>
        ) : a.status !== 'new' ? (
          <Alert color="gray">{PAGING_MSG.ackAlready(a.status)}</Alert>
        ) : (
          <Button size="md" leftSection={<IconCheck size={18} />} loading={ack.isPending} onClick={() => ack.mutate()}>
            Acknowledge
          </Button>
        )}
        <Button component={Link} to={`/app/dashboard?alert=${encodeURIComponent(a.alertId)}`} variant="subtle">
          Open alert
        </Button>
      </Stack>
    );
  }

  return (
    <PublicCardPage title="Acknowledge alert">{body}</PublicCardPage>
  );
}
