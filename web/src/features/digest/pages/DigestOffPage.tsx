import { Alert, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconMailOff } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { DIGEST_MSG } from '../../../../../contract/digest.ts';
import { Loading } from '../../../components/Loading.tsx';
import { PublicCardPage } from '../../../components/PublicCardPage.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useDigestOff, useTurnOffDigest } from '../api/digest-off.ts';

/**
 * /digest/off/:token, the "Turn off the weekly digest" link of a digest mail: says whose digest it is and turns it off
 * when the button is pressed (opening the link alone changes nothing).
 */
export function DigestOffPage() {
  const { token = '' } = useParams();
  const info = useDigestOff(token);
  const off = useTurnOffDigest(token);

  let body;
  if (info.isPending) body = <Loading />;
  else if (info.isError) {
    const invalid = info.error instanceof ApiError && info.error.status > 0 && info.error.status < 500;
    body = (
      <Stack align="center" ta="center" data-testid="digest-off-invalid">
        <ThemeIcon size={48} radius="xl" color="gray" variant="light">
          <IconAlertTriangle />
        </ThemeIcon>
        <Title order={1} size="h3">
          {invalid ? info.error.message : 'This page could not be loaded.'}
        </Title>
        {!invalid && (
          <Button onClick={() => info.refetch()} variant="light">
            Retry
          </Button>
        )}
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md" data-testid="digest-off-page">
        <Title order={1} size="h3">
          Weekly digest
        </Title>
        <Text className="wrap-anywhere">
          The weekly digest of <b>{info.data.email}</b>: every Monday at 08:00, last week's alerts, response times and busiest clients.
        </Text>
        {!info.data.weeklyDigest ? (
          <Alert color="green" icon={<IconCheck />} data-testid="digest-off-done">
            {DIGEST_MSG.turnedOff}
          </Alert>
        ) : (
          <>
            {off.isError && (
              <Alert color="red" icon={<IconAlertTriangle />} role="alert">
                {off.error instanceof ApiError && off.error.status < 500 && off.error.status > 0 ? off.error.message : 'The digest could not be turned off. Try again.'}
              </Alert>
            )}
            <Button size="md" leftSection={<IconMailOff size={18} />} loading={off.isPending} onClick={() => off.mutate()}>
              Turn off the weekly digest
            </Button>
          </>
        )}
        <Button component={Link} to="/app/profile?tab=notifications" variant="subtle">
          Notification settings
        </Button>
      </Stack>
    );
  }
  return <PublicCardPage title="Weekly digest">{body}</PublicCardPage>;
}
