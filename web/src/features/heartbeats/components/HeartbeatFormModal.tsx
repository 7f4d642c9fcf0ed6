import { useState } from 'react';
import { Alert as Callout, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import { HEARTBEAT_MSG, type Heartbeat, type HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { ApiError } from '../../../lib/api.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useCreateHeartbeat } from '../api/create-heartbeat.ts';
import { useUpdateHeartbeat } from '../api/update-heartbeat.ts';
import { DurationInput } from './DurationInput.tsx';

/** New heartbeat monitor (its ping URL is shown once afterwards) or Edit heartbeat monitor. */
export function HeartbeatFormModal({ tenantId, editing, onClose, onCreated }: { tenantId: string; editing: Heartbeat | null; onClose: () => void; onCreated: (r: HeartbeatWithPingUrl) => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const clients = useClientChoices(tenantId);
  const create = useCreateHeartbeat(tenantId);
  const update = useUpdateHeartbeat(tenantId);
  const [name, setName] = useState(editing?.name ?? '');
  const [intervalMinutes, setIntervalMinutes] = useState<number | null>(editing?.intervalMinutes ?? 1440);
  const [graceMinutes, setGraceMinutes] = useState<number | null>(editing?.graceMinutes ?? 60);
  const [clientId, setClientId] = useState<string | null>(editing?.clientId ?? null);
  const [priority, setPriority] = useState<AlertPriority>(editing?.priority ?? 'high');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const clear = (field: string) => setErrors((x) => ({ ...x, [field]: '' }));

  const submit = () => {
    setFailure(null);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = HEARTBEAT_MSG.nameRequired;
    if (intervalMinutes === null || intervalMinutes < 1) local.intervalMinutes = HEARTBEAT_MSG.intervalRange;
    if (graceMinutes === null) local.graceMinutes = HEARTBEAT_MSG.graceRange;
    if (Object.keys(local).length) return setErrors(local);
    const body = { name: name.trim(), intervalMinutes: intervalMinutes!, graceMinutes: graceMinutes!, clientId, priority };
    const onError = (err: unknown) => {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else setFailure(err instanceof Error ? err.message : String(err));
    };
    if (editing) {
      update.mutate(
        { id: editing.id, ...body },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: 'Heartbeat monitor saved' });
            onClose();
          },
          onError,
        },
      );
    } else create.mutate(body, { onSuccess: onCreated, onError });
  };

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit heartbeat monitor' : 'New heartbeat monitor'} fullScreen={phone} data-testid="heartbeat-form">
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
          <TextInput
            label="Name"
            placeholder="Nightly backup: Globex file server"
            description="The job it watches; the alert is titled after it."
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              clear('name');
            }}
            error={errors.name || undefined}
            data-autofocus
            withAsterisk
          />
          <DurationInput
            label="Expected every"
            description="How often the job runs and pings."
            initialMinutes={editing?.intervalMinutes ?? 1440}
            min={1}
            onChange={(v) => {
              setIntervalMinutes(v);
              clear('intervalMinutes');
            }}
            error={errors.intervalMinutes || undefined}
          />
          <DurationInput
            label="Grace time"
            description="How late a ping may be before the monitor is down and an alert opens."
            initialMinutes={editing?.graceMinutes ?? 60}
            min={0}
            onChange={(v) => {
              setGraceMinutes(v);
              clear('graceMinutes');
            }}
            error={errors.graceMinutes || undefined}
          />
          <Select
            label="Client"
            description="Its alerts belong to this client (optional)."
            placeholder={clients.isPending ? 'Loading...' : 'No client'}
            data={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={clientId}
            onChange={(v) => {
              setClientId(v);
              clear('clientId');
            }}
            error={errors.clientId || (clients.isError ? 'Clients could not be loaded' : undefined)}
            clearable
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Alert priority"
            data={ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
            value={priority}
            allowDeselect={false}
            onChange={(v) => v && setPriority(v as AlertPriority)}
            error={errors.priority || undefined}
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Save Changes' : 'Create monitor'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
