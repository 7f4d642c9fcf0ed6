import { useState } from 'react';
import { Alert as Callout, Button, Checkbox, Group, Modal, MultiSelect, PasswordInput, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconInfoCircle, IconKey } from '@tabler/icons-react';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import {
  DESTINATION_EVENT_LABELS,
  DESTINATION_EVENTS,
  DESTINATION_MSG,
  DESTINATION_TYPE_LABELS,
  type Destination,
  type DestinationEvent,
  type DestinationInput,
  type DestinationType,
  type DestinationWithSecret,
} from '../../../../../contract/destinations.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useCreateDestination, useUpdateDestination } from '../api/destinations.ts';

/** Shown once after creating a webhook or rotating its secret: the signing secret, and how a receiver checks it. */
export function SecretShown({ created, onClose, phone }: { created: DestinationWithSecret; onClose: () => void; phone: boolean }) {
  return (
    <Modal opened onClose={onClose} title={`Signing secret: ${created.name}`} size="lg" fullScreen={phone} data-testid="destination-secret">
      <Stack gap="md">
        <Callout color="orange" icon={<IconKey />}>
          {DESTINATION_MSG.secretShownOnce}
        </Callout>
        <Copyable value={created.secret ?? ''} label="signing secret" />
        <Text size="sm" c="dimmed">
          Each request carries webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks): any Standard Webhooks library verifies them with this secret.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>I have copied the secret</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const URL_FIELD: Record<'teams' | 'webhook', { placeholder: string; description: string }> = {
  teams: {
    placeholder: 'https://…environment.api.powerplatform.com/powerautomate/automations/direct/workflows/…',
    description: 'In Teams: Workflows → "Send webhook alerts to a channel" (When a Teams webhook request is received); paste the URL it gives.',
  },
  webhook: { placeholder: 'https://psa.example.com/hooks/alertdesk', description: 'Alertdesk POSTs JSON here; private and internal addresses are refused.' },
};

/** New destination (a Teams channel, a Slack channel or a webhook, whose secret is shown once afterwards) or Edit destination. */
export function DestinationFormModal({ tenantId, editing, onClose }: { tenantId: string; editing: Destination | null; onClose: () => void }) {
  const phone = !!useMediaQuery('(max-width: 36em)');
  const clients = useClientChoices(tenantId);
  const create = useCreateDestination(tenantId);
  const update = useUpdateDestination(tenantId);
  const [type, setType] = useState<DestinationType>(editing?.type ?? 'teams');
  const [name, setName] = useState(editing?.name ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [channel, setChannel] = useState(editing?.channel ?? '');
  const [botToken, setBotToken] = useState('');
  const [events, setEvents] = useState<DestinationEvent[]>(editing?.events ?? ['alert.triggered', 'alert.acknowledged', 'alert.resolved']);
  const [priorities, setPriorities] = useState<AlertPriority[]>(editing?.filter.priorities ?? []);
  const [clientIds, setClientIds] = useState<string[]>(editing?.filter.clientIds ?? []);
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<DestinationWithSecret | null>(null);

  if (created) return <SecretShown created={created} onClose={onClose} phone={phone} />;

  /** A field's error goes once it is edited. */
  const clear = (...keys: string[]) =>
    setErrors((e) => (keys.some((k) => k in e) ? Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) : e));

  const submit = () => {
    setFailure(null);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = DESTINATION_MSG.nameRequired;
    if (type !== 'slack' && !url.trim()) local.url = DESTINATION_MSG.urlRequired;
    if (type === 'slack' && !channel.trim()) local.channel = DESTINATION_MSG.channelRequired;
    if (type === 'slack' && !editing && !botToken.trim()) local.botToken = DESTINATION_MSG.botTokenRequired;
    if (events.length === 0) local.events = DESTINATION_MSG.eventsRequired;
    if (Object.keys(local).length) return setErrors(local);
    const where = type === 'slack' ? { channel: channel.trim(), ...(botToken.trim() ? { botToken: botToken.trim() } : {}) } : { url: url.trim() };
    const body: DestinationInput = { type, name: name.trim(), ...where, events, filter: { clientIds, priorities }, enabled };
    const onError = (err: unknown) => {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else setFailure(err instanceof Error ? err.message : String(err));
    };
    if (editing) update.mutate({ id: editing.id, ...body }, { onSuccess: onClose, onError });
    else create.mutate(body, { onSuccess: (r) => (r.secret ? setCreated(r) : onClose()), onError });
  };

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit destination' : 'New destination'} size="lg" fullScreen={phone} data-testid="destination-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {failure && (
            <Callout color="red" icon={<IconAlertTriangle />}>
              {failure}
            </Callout>
          )}
          {!editing && (
            <SegmentedControl
              aria-label="Type"
              fullWidth
              value={type}
              onChange={(v) => (setType(v as DestinationType), setErrors({}))}
              data={(['teams', 'slack', 'webhook'] as const).map((t) => ({ value: t, label: DESTINATION_TYPE_LABELS[t] }))}
              data-testid="destination-type"
            />
          )}
          <TextInput label="Name" placeholder={type === 'webhook' ? 'PSA ticket bridge' : '#noc-globex'} value={name} onChange={(e) => (setName(e.currentTarget.value), clear('name'))} error={errors.name || undefined} data-autofocus withAsterisk />
          {type === 'slack' ? (
            <>
              <TextInput label="Channel" placeholder="#noc-globex or C0123ABCD" description="Invite the Slack app to this channel." value={channel} onChange={(e) => (setChannel(e.currentTarget.value), clear('channel'))} error={errors.channel || undefined} withAsterisk />
              <PasswordInput
                label="Bot token"
                placeholder={editing ? 'Leave empty to keep the current token' : 'xoxb-…'}
                description="The app's Bot User OAuth Token (chat:write). Stored encrypted, never shown again."
                value={botToken}
                onChange={(e) => (setBotToken(e.currentTarget.value), clear('botToken'))}
                error={errors.botToken || undefined}
                withAsterisk={!editing}
                autoComplete="off"
              />
              <Callout color="blue" icon={<IconInfoCircle />} data-testid="slack-link-explain">
                {DESTINATION_MSG.slackLinkExplain}
              </Callout>
            </>
          ) : (
            <TextInput label="URL" {...URL_FIELD[type]} value={url} onChange={(e) => (setUrl(e.currentTarget.value), clear('url', 'type'))} error={errors.url || errors.type || undefined} withAsterisk />
          )}
          <Checkbox.Group label="Events" value={events} onChange={(v) => (setEvents(v as DestinationEvent[]), clear('events'))} error={errors.events || undefined} withAsterisk>
            <Group mt={4} gap="md">
              {DESTINATION_EVENTS.map((e) => (
                <Checkbox key={e} value={e} label={DESTINATION_EVENT_LABELS[e]} />
              ))}
            </Group>
          </Checkbox.Group>
          <MultiSelect
            label="Only these priorities"
            placeholder={priorities.length ? undefined : 'All priorities'}
            data={ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
            value={priorities}
            onChange={(v) => setPriorities(v as AlertPriority[])}
            error={errors['filter.priorities'] || undefined}
            clearable
          />
          <MultiSelect
            label="Only these clients"
            placeholder={clientIds.length ? undefined : 'All clients'}
            data={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={clientIds}
            onChange={setClientIds}
            error={errors['filter.clientIds'] || undefined}
            searchable
            clearable
            nothingFoundMessage="No clients"
          />
          {editing && <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} description={editing.disabledReason ?? undefined} />}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Save' : 'Create destination'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
