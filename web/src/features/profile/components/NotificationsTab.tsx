import { useState } from 'react';
import { Alert, Anchor, Button, Checkbox, Chip, Group, MultiSelect, Paper, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../../../contract/messages.ts';
import {
  E164,
  PRIORITIES,
  PROFILE_MSG,
  type AlertSubscription,
  type NotificationPreferencesResponse,
  type Priority,
} from '../../../../../contract/profile.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { LoadError, NoTenant } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useServerConfig } from '../../../lib/server-config.ts';
import { useNotificationPreferences } from '../api/notification-preferences.ts';
import { useSaveNotificationPreferences } from '../api/save-notification-preferences.ts';
import { BrowserNotificationsCard } from './BrowserNotificationsCard.tsx';
import { NotificationRulesCard } from './NotificationRulesCard.tsx';
import { TestPageCard } from './TestPageCard.tsx';

const PRIORITY_LABEL: Record<Priority, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** Notifications: browser notifications, then the preferences saved on the server for this user (and this tenant). */
export function NotificationsTab() {
  const { tenant } = useCurrentTenant();
  return (
    <Stack>
      <BrowserNotificationsCard />
      {tenant ? <Preferences key={tenant.id} tenantId={tenant.id} tenantName={tenant.name} /> : <NoTenant />}
      <NotificationRulesCard />
      <TestPageCard />
    </Stack>
  );
}

function Preferences({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const prefs = useNotificationPreferences(tenantId);
  if (prefs.isPending) return <Loading />;
  if (prefs.isError) return <LoadError message="Failed to load notification preferences" onRetry={() => prefs.refetch()} />;
  return <PreferencesForm tenantId={tenantId} tenantName={tenantName} initial={prefs.data} />;
}

const normalizePhone = (s: string) => s.trim().replace(/[\s().-]/g, '');

function PreferencesForm({ tenantId, tenantName, initial }: { tenantId: string; tenantName: string; initial: NotificationPreferencesResponse }) {
  const [email, setEmail] = useState(initial.email);
  const serverConfig = useServerConfig();
  const [sms, setSms] = useState(initial.sms);
  const [push, setPush] = useState(initial.push);
  const [phone, setPhone] = useState(initial.phoneNumber ?? '');
  const initialClients = initial.alertSubscriptions.flatMap((s) => (s.type === 'client' ? [s] : []));
  const [clientIds, setClientIds] = useState(initialClients.map((s) => s.id));
  const [priorities, setPriorities] = useState(initial.alertSubscriptions.flatMap((s) => (s.type === 'priority' ? [s.value] : [])));
  const [tags, setTags] = useState(initial.alertSubscriptions.flatMap((s) => (s.type === 'tag' ? [s.value] : [])));
  const [errors, setErrors] = useState<{ phone?: string; form?: string }>({});
  const clients = useClientChoices(tenantId);
  const save = useSaveNotificationPreferences(tenantId);

  // The tenant's clients, plus any subscribed client the list did not bring (so its name still shows).
  const byId = new Map<string, string>();
  for (const c of clients.data ?? []) byId.set(c.id, c.name);
  for (const c of initialClients) if (!byId.has(c.id)) byId.set(c.id, c.name ?? 'Unknown client');
  const clientOptions = [...byId].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const phoneNumber = normalizePhone(phone);
    if (phoneNumber && !E164.test(phoneNumber)) return setErrors({ phone: PROFILE_MSG.phoneInvalid });
    if (sms.enabled && !phoneNumber) return setErrors({ phone: PROFILE_MSG.phoneRequiredForSms });
    setErrors({});
    const alertSubscriptions: AlertSubscription[] = [
      ...clientIds.map((id) => ({ type: 'client' as const, id })),
      ...priorities.map((value) => ({ type: 'priority' as const, value })),
      ...tags.map((value) => ({ type: 'tag' as const, value })),
    ];
    try {
      const saved = await save.mutateAsync({ email, sms, push, phoneNumber: phoneNumber || null, alertSubscriptions });
      setPhone(saved.phoneNumber ?? '');
      setTags(saved.alertSubscriptions.flatMap((s) => (s.type === 'tag' ? [s.value] : [])));
      notifications.show({ color: 'green', message: PROFILE_MSG.preferencesSaved });
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : {};
      if (fields.phoneNumber) setErrors({ phone: fields.phoneNumber });
      else setErrors({ form: err instanceof ApiError && err.status === 400 ? `${MSG.notificationPrefsSaveFailed}: ${err.message}` : MSG.notificationPrefsSaveFailed });
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="preferences-form">
      <Stack>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">Push notifications</Title>
            <Switch label="Send alerts to my browsers and devices" checked={push.enabled} onChange={(e) => setPush({ enabled: e.currentTarget.checked })} />
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">Email</Title>
            <Switch label="Email notifications" checked={email.enabled} onChange={(e) => setEmail({ ...email, enabled: e.currentTarget.checked })} />
            <Stack gap="xs" pl="md">
              <Checkbox label="Alert notifications" disabled={!email.enabled} checked={email.alertNotifications} onChange={(e) => setEmail({ ...email, alertNotifications: e.currentTarget.checked })} />
              <Group gap="xs" wrap="nowrap">
                <Checkbox label="Weekly digest" disabled={!email.enabled} checked={email.weeklyDigest} onChange={(e) => setEmail({ ...email, weeklyDigest: e.currentTarget.checked })} />
                <Anchor size="sm" href={`/api/me/digest/preview?tenantId=${encodeURIComponent(tenantId)}`} target="_blank" rel="noopener" data-testid="digest-preview">
                  Preview
                </Anchor>
              </Group>
              <Text size="xs" c="dimmed" pl={30} mt={-6}>
                Mondays at 08:00 in your time zone: last week's alerts, response times and busiest clients.
              </Text>
              <Checkbox label="System updates" disabled={!email.enabled} checked={email.systemUpdates} onChange={(e) => setEmail({ ...email, systemUpdates: e.currentTarget.checked })} />
            </Stack>
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm" maw={560}>
            <Title order={2} size="h4">SMS</Title>
            {serverConfig.data && !serverConfig.data.smsEnabled && (
              <Alert color="gray" variant="light" p="xs" data-testid="sms-not-configured">
                SMS is not configured on this server yet: pages are sent by email and push until an administrator sets it up.
              </Alert>
            )}
            <Switch
              label="SMS notifications"
              checked={sms.enabled}
              onChange={(e) => {
                setSms({ ...sms, enabled: e.currentTarget.checked });
                setErrors({});
              }}
            />
            <TextInput
              label="Phone number"
              placeholder="+14155550123"
              description="International format with country code"
              type="tel"
              autoComplete="tel"
              value={phone}
              onChange={(e) => {
                setPhone(e.currentTarget.value);
                setErrors({});
              }}
              error={errors.phone}
            />
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Text me for these priorities
              </Text>
              <Chip.Group multiple value={sms.alertTypes} onChange={(v) => setSms({ ...sms, alertTypes: v as Priority[] })}>
                <Group gap="xs">
                  {PRIORITIES.map((p) => (
                    <Chip key={p} value={p} size="sm" disabled={!sms.enabled} data-testid={`sms-${p}`}>
                      {PRIORITY_LABEL[p]}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            </Stack>
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm" maw={560}>
            <div>
              <Title order={2} size="h4">Alert subscriptions</Title>
              <Text size="sm" c="dimmed">
                Alerts of {tenantName} you want to hear about: by client, by priority or by tag.
              </Text>
            </div>
            <MultiSelect
              label="Clients"
              placeholder={clientOptions.length ? 'Choose clients' : 'No clients yet'}
              data={clientOptions}
              value={clientIds}
              onChange={setClientIds}
              searchable
              clearable
              nothingFoundMessage="No matching client"
              comboboxProps={{ withinPortal: true }}
              error={clients.isError ? 'Clients could not be loaded right now; your saved client subscriptions are kept.' : undefined}
            />
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Priorities
              </Text>
              <Chip.Group multiple value={priorities} onChange={(v) => setPriorities(v as Priority[])}>
                <Group gap="xs">
                  {PRIORITIES.map((p) => (
                    <Chip key={p} value={p} size="sm" data-testid={`subscribe-${p}`}>
                      {PRIORITY_LABEL[p]}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            </Stack>
            <TagsInput label="Tags" placeholder="Type a tag and press Enter" value={tags} onChange={setTags} clearable maxTags={50} />
          </Stack>
        </Paper>

        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save Preferences
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
