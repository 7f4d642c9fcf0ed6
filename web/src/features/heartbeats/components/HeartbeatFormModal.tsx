import { useState } from 'react';
import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import { HEARTBEAT_MSG, type Heartbeat, type HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { ClientSelect } from '../../../components/ClientSelect.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { NameField } from '../../../components/NameField.tsx';
import { useFormErrors } from '../../../components/use-form-errors.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useCreateHeartbeat } from '../api/create-heartbeat.ts';
import { useUpdateHeartbeat } from '../api/update-heartbeat.ts';
import { DurationInput } from './DurationInput.tsx';

/** New heartbeat monitor (its ping URL is shown once afterwards) or Edit heartbeat monitor. */
export function HeartbeatFormModal({ tenantId, editing, onClose, onCreated }: { tenantId: string; editing: Heartbeat | null; onClose: () => void; onCreated: (r: HeartbeatWithPingUrl) => void }) {
  const clients = useClientChoices(tenantId);
  const create = useCreateHeartbeat(tenantId);
  const update = useUpdateHeartbeat(tenantId);
  const [name, setName] = useState(editing?.name ?? '');
  const [intervalMinutes, setIntervalMinutes] = useState<number | null>(editing?.intervalMinutes ?? 1440);
  const [graceMinutes, setGraceMinutes] = useState<number | null>(editing?.graceMinutes ?? 60);
  const [clientId, setClientId] = useState<string | null>(editing?.clientId ?? null);
  const [priority, setPriority] = useState<AlertPriority>(editing?.priority ?? 'high');
  const { errors, setErrors, failure, setFailure, clear, refused } = useFormErrors();

  const submit = () => {
    setFailure(null);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = HEARTBEAT_MSG.nameRequired;
    if (intervalMinutes === null || intervalMinutes < 1) local.intervalMinutes = HEARTBEAT_MSG.intervalRange;
    if (graceMinutes === null) local.graceMinutes = HEARTBEAT_MSG.graceRange;
    if (Object.keys(local).length) return setErrors(local);
    const body = { name: name.trim(), intervalMinutes: intervalMinutes!, graceMinutes: graceMinutes!, clientId, priority };
    if (editing) {
      update.mutate(
        { id: editing.id, ...body },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: 'Heartbeat monitor saved' });
            onClose();
          },
          onError: refused,
        },
      );
    } else create.mutate(body, { onSuccess: onCreated, onError: refused });
  };

  return (
    <FormModal
      title={editing ? 'Edit heartbeat monitor' : 'New heartbeat monitor'}
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      submitLabel={editing ? 'Save Changes' : 'Create monitor'}
      submitting={create.isPending || update.isPending}
      data-testid="heartbeat-form"
    >
      <NameField placeholder="Nightly backup: Globex file server" description="The job it watches; the alert is titled after it." value={name} onChange={(v) => (setName(v), clear('name'))} error={errors.name} />
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
      <ClientSelect clients={clients} description="Its alerts belong to this client (optional)." value={clientId} onChange={(v) => (setClientId(v), clear('clientId'))} error={errors.clientId} />
      <Select
        label="Alert priority"
        data={ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
        value={priority}
        allowDeselect={false}
        onChange={(v) => v && setPriority(v as AlertPriority)}
        error={errors.priority || undefined}
        comboboxProps={{ withinPortal: true }}
      />
    </FormModal>
  );
}
