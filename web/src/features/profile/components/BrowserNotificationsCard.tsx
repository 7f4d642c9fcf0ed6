import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBellRinging, IconBrowserX, IconCheck, IconLock } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { useServerConfig } from '../../../lib/server-config.ts';
import { browserPushState, pushTokenStale, subscribeThisBrowser, type BrowserPushState } from './browser-push.ts';

const STATE_LABEL: Record<BrowserPushState, string> = { unsupported: 'Not supported', default: 'Not enabled', granted: 'Enabled', denied: 'Blocked' };
const STATE_COLOR: Record<BrowserPushState, string> = { unsupported: 'gray', default: 'gray', granted: 'green', denied: 'red' };

/** Browser notifications of spec section 2: enable (permission request), the unsupported panel, the blocked instructions. */
export function BrowserNotificationsCard() {
  const [state, setState] = useState<BrowserPushState>(() => browserPushState());
  const [result, setResult] = useState<{ ok: boolean; note?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const config = useServerConfig();
  const vapid = config.data?.vapidPublicKey ?? null;

  // A subscription stored more than 7 days ago is stored again (spec section 9), quietly.
  useEffect(() => {
    if (state === 'granted' && vapid && pushTokenStale()) subscribeThisBrowser(vapid).catch(() => {});
  }, [state, vapid]);

  const enable = async () => {
    setBusy(true);
    setResult(null);
    try {
      const permission = await Notification.requestPermission();
      setState(permission);
      if (permission !== 'granted') return setResult({ ok: false });
      try {
        const stored = await subscribeThisBrowser(vapid);
        setResult({ ok: true, note: stored ? undefined : 'Push delivery is not configured on this server yet; alerts will reach this browser once it is.' });
      } catch (e) {
        setResult({ ok: true, note: `This browser allowed notifications but could not register for push messages (${(e as Error).message}).` });
      }
    } catch {
      setResult({ ok: false });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" data-testid="browser-notifications">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">Browser notifications</Title>
          <Badge color={STATE_COLOR[state]} variant="light" data-testid="browser-permission">
            {STATE_LABEL[state]}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          Get a notification on this device when an alert needs you, even while Alertdesk is in the background.
        </Text>
        {result?.ok === true && (
          <Alert color="green" icon={<IconCheck />} role="status">
            {MSG.browserNotificationsEnabled}
            {result.note && (
              <Text size="sm" mt={4}>
                {result.note}
              </Text>
            )}
          </Alert>
        )}
        {result?.ok === false && (
          <Alert color="red" role="alert">
            {MSG.browserNotificationsDenied}
          </Alert>
        )}
        {state === 'unsupported' && (
          <Alert color="gray" icon={<IconBrowserX />} title="This browser does not support notifications" data-testid="push-unsupported">
            <Text size="sm">
              Browser notifications need notification and push support. Use a current version of Chrome, Edge, Firefox or Safari. On iPhone and iPad
              (iOS 16.4 or later), first add Alertdesk to your Home Screen, then open it from there. You still receive alerts by email and SMS as set below.
            </Text>
          </Alert>
        )}
        {state === 'denied' && (
          <Alert color="orange" icon={<IconLock />} title="Notifications are blocked for this site" data-testid="push-blocked">
            <Text size="sm" mb="xs">
              Your browser was told not to show notifications from Alertdesk. To allow them again:
            </Text>
            <List type="ordered" size="sm" spacing={4}>
              <List.Item>Click the lock or site-settings icon at the left of the address bar.</List.Item>
              <List.Item>Find Notifications and change it from Block to Allow.</List.Item>
              <List.Item>Reload this page, then click Enable browser notifications.</List.Item>
            </List>
          </Alert>
        )}
        {(state === 'default' || state === 'denied') && (
          <Group>
            <Button leftSection={<IconBellRinging size={16} />} onClick={enable} loading={busy}>
              Enable browser notifications
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
