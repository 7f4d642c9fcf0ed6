import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBellRinging, IconBrowserX, IconCheck, IconLock } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { useServerConfig } from '../../../lib/server-config.ts';
import { usePushSubscriptionStatus } from '../api/push-subscription-status.ts';
import { browserPushState, pushTokenStale, subscribeThisBrowser, thisBrowserEndpoint, type BrowserPushState } from './browser-push.ts';

const STATE_LABEL: Record<BrowserPushState, string> = { unsupported: 'Not supported', default: 'Not enabled', granted: 'Enabled', denied: 'Blocked' };
const STATE_COLOR: Record<BrowserPushState, string> = { unsupported: 'gray', default: 'gray', granted: 'green', denied: 'red' };

/** Browser notifications of spec section 2: enable (permission request), the unsupported panel, the blocked instructions. */
export function BrowserNotificationsCard() {
  const [state, setState] = useState<BrowserPushState>(() => browserPushState());
  const [result, setResult] = useState<{ ok: boolean; note?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const config = useServerConfig();
  const vapid = config.data?.vapidPublicKey ?? null;
  // This browser's push subscription (undefined: not read yet), and whether the server holds it (issue 27: the
  // permission alone does not say pages can reach this browser).
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [subscribeError, setSubscribeError] = useState<string | null>(null);
  const server = usePushSubscriptionStatus(endpoint ?? null);
  const qc = useQueryClient();
  const readEndpoint = useCallback(() => thisBrowserEndpoint().then(setEndpoint, () => setEndpoint(null)), []);

  useEffect(() => {
    if (state === 'granted') void readEndpoint();
  }, [state, readEndpoint]);

  /** Subscribes this browser and stores it on the server; a failure is shown, never swallowed. */
  const register = useCallback(async () => {
    setSubscribeError(null);
    try {
      const stored = await subscribeThisBrowser(vapid);
      await readEndpoint();
      await qc.invalidateQueries({ queryKey: ['pushSubscription'] });
      return stored;
    } catch (e) {
      setSubscribeError((e as Error).message || String(e));
      return null;
    }
  }, [vapid, readEndpoint, qc]);

  // A subscription stored more than 7 days ago is stored again (spec section 9); a failure is shown.
  useEffect(() => {
    if (state === 'granted' && vapid && pushTokenStale()) void register();
  }, [state, vapid, register]);

  const enable = async () => {
    setBusy(true);
    setResult(null);
    try {
      const permission = await Notification.requestPermission();
      setState(permission);
      if (permission !== 'granted') return setResult({ ok: false });
      const stored = await register();
      setResult({ ok: true, note: stored === false ? 'Push delivery is not configured on this server yet; alerts will reach this browser once it is.' : undefined });
    } catch {
      setResult({ ok: false });
    } finally {
      setBusy(false);
    }
  };

  // Allowed by the browser is "Enabled" only once the server holds this browser's subscription.
  const held = endpoint === null ? false : endpoint === undefined ? undefined : server.data?.subscribed;
  const badge =
    state !== 'granted' || (held === undefined && server.isError) ? { label: STATE_LABEL[state], color: STATE_COLOR[state] } : held === undefined ? { label: 'Checking…', color: 'gray' } : held ? { label: 'Enabled', color: 'green' } : { label: 'Not registered', color: 'orange' };

  return (
    <Paper withBorder radius="md" p="lg" data-testid="browser-notifications">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">Browser notifications</Title>
          <Badge color={badge.color} variant="light" data-testid="browser-permission">
            {badge.label}
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
        {subscribeError && (
          <Alert color="red" role="alert" data-testid="push-subscribe-error">
            This browser allowed notifications but could not register for push messages ({subscribeError}).
          </Alert>
        )}
        {state === 'granted' && held !== undefined && (
          <ServerStatus
            subscribed={held}
            busy={busy}
            onRegister={async () => {
              setBusy(true);
              await register();
              setBusy(false);
            }}
          />
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

/** Whether pages can reach this browser: the server holds its push subscription under this person, or not. */
function ServerStatus({ subscribed, busy, onRegister }: { subscribed: boolean; busy: boolean; onRegister: () => void }) {
  if (subscribed)
    return (
      <Text size="sm" c="green" data-testid="push-server-status">
        This browser receives pages: the server holds its push subscription.
      </Text>
    );
  return (
    <Alert color="orange" data-testid="push-server-status" title="Pages cannot reach this browser yet">
      <Text size="sm" mb="xs">
        Notifications are allowed, but the server holds no push subscription for this browser.
      </Text>
      <Button size="xs" variant="light" onClick={onRegister} loading={busy}>
        Register this browser
      </Button>
    </Alert>
  );
}
