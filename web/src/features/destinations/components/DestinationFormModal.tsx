import { useState } from 'react';
import { Alert as Callout, Checkbox, Group, MultiSelect, PasswordInput, SegmentedControl, Switch, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
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
import { FormModal } from '../../../components/FormModal.tsx';
import { NameField } from '../../../components/NameField.tsx';
import { useFormErrors } from '../../../components/use-form-errors.ts';
import { ShownOnceModal } from '../../../components/ShownOnceModal.tsx';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useCreateDestination, useUpdateDestination } from '../api/destinations.ts';

/** Shown once after creating a webhook or rotating its secret: the signing secret, and how a receiver checks it. */
export function SecretShown({ created, onClose }: { created: DestinationWithSecret; onClose: () => void }) {
  return (
    <ShownOnceModal
      title={`Signing secret: ${created.name}`}
      notice={DESTINATION_MSG.secretShownOnce}
      value={created.secret ?? ''}
      valueLabel="signing secret"
      doneLabel="I have copied the secret"
      onClose={onClose}
      data-testid="destination-secret"
    >
      <Text size="sm" c="dimmed">
        Each request carries webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks): any Standard Webhooks library verifies them with this secret.
      </Text>
    </ShownOnceModal>
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
  const { errors, setErrors, failure, setFailure, clear, refused } = useFormErrors();
  const [created, setCreated] = useState<DestinationWithSecret | null>(null);

  if (created) return <SecretShown created={created} onClose={onClose} />;

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
    if (editing) update.mutate({ id: editing.id, ...body }, { onSuccess: onClose, onError: refused });
    else create.mutate(body, { onSuccess: (r) => (r.secret ? setCreated(r) : onClose()), onError: refused });
  };

  return (
    <FormModal
      title={editing ? 'Edit destination' : 'New destination'}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      submitLabel={editing ? 'Save' : 'Create destination'}
      submitting={create.isPending || update.isPending}
      data-testid="destination-form"
    >
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
      <NameField placeholder={type === 'webhook' ? 'PSA ticket bridge' : '#noc-globex'} value={name} onChange={(v) => (setName(v), clear('name'))} error={errors.name} />
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
    </FormModal>
  );
}
