import { useState } from 'react';
import { Chip, Group, MultiSelect, SegmentedControl, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MAINTENANCE_MSG, WEEKDAY_LABELS, type MaintenanceWindow, type MaintenanceWindowInput } from '../../../../../contract/maintenance.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { NameField } from '../../../components/NameField.tsx';
import { useFormErrors } from '../../../components/use-form-errors.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useIntegrationChoices, useSaveMaintenanceWindow } from '../api/maintenance.ts';
import { browserZone, fromLocalInput, timeZones, toLocalInput } from './maintenance-text.ts';

const HOUR = 3_600_000;

/** New maintenance window or Edit maintenance window: one window (start, end) or a weekly one (days, hours, zone). */
export function MaintenanceFormModal({ tenantId, editing, onClose }: { tenantId: string; editing: MaintenanceWindow | null; onClose: () => void }) {
  const clients = useClientChoices(tenantId);
  const integrations = useIntegrationChoices(tenantId);
  const save = useSaveMaintenanceWindow(tenantId);
  const r = editing?.recurrence;
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<'one_off' | 'weekly'>(editing?.kind ?? 'one_off');
  const [start, setStart] = useState(toLocalInput(editing?.start ?? new Date(Math.ceil(Date.now() / HOUR) * HOUR).toISOString()));
  const [end, setEnd] = useState(toLocalInput(editing?.end ?? new Date(Math.ceil(Date.now() / HOUR) * HOUR + 2 * HOUR).toISOString()));
  const [days, setDays] = useState<string[]>((r?.days ?? [0]).map(String));
  const [from, setFrom] = useState(r?.from ?? '22:00');
  const [to, setTo] = useState(r?.to ?? '02:00');
  const [timeZone, setTimeZone] = useState(r?.timeZone ?? browserZone());
  const [until, setUntil] = useState(toLocalInput(editing?.until ?? null));
  const [clientIds, setClientIds] = useState<string[]>(editing?.scope.clientIds ?? []);
  const [integrationIds, setIntegrationIds] = useState<string[]>(editing?.scope.integrationIds ?? []);
  const { errors, setErrors, failure, setFailure, refused } = useFormErrors();
  const field = (name: string) => errors[name] || undefined;

  const submit = () => {
    setFailure(null);
    setErrors({});
    const scope = { clientIds, integrationIds };
    const body: MaintenanceWindowInput =
      kind === 'one_off'
        ? { name, start: fromLocalInput(start), end: fromLocalInput(end), scope }
        : { name, recurrence: { days: days.map(Number), from, to, timeZone }, until: fromLocalInput(until) ?? null, scope };
    save.mutate(
      { id: editing?.id ?? null, body },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: editing ? 'Maintenance window saved' : 'Maintenance window created' });
          onClose();
        },
        onError: refused,
      },
    );
  };

  return (
    <FormModal
      title={editing ? 'Edit maintenance window' : 'New maintenance window'}
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      submitLabel={editing ? 'Save Changes' : 'Create window'}
      submitting={save.isPending}
      submitTestId="maintenance-save"
      data-testid="maintenance-form"
    >
      <NameField placeholder="Patch night" value={name} onChange={setName} error={field('name')} data-testid="maintenance-name" />
      <SegmentedControl
        value={kind}
        onChange={(v) => setKind(v as 'one_off' | 'weekly')}
        data={[
          { value: 'one_off', label: 'One window' },
          { value: 'weekly', label: 'Every week' },
        ]}
        data-testid="maintenance-kind"
      />
      {kind === 'one_off' ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput type="datetime-local" label="Start" value={start} onChange={(e) => setStart(e.currentTarget.value)} error={field('start')} withAsterisk data-testid="maintenance-start" />
          <TextInput type="datetime-local" label="End" value={end} onChange={(e) => setEnd(e.currentTarget.value)} error={field('end')} withAsterisk data-testid="maintenance-end" />
        </SimpleGrid>
      ) : (
        <>
          <div>
            <Text size="sm" fw={500} mb={4}>
              Days
            </Text>
            <Chip.Group multiple value={days} onChange={setDays}>
              <Group gap={6}>
                {WEEKDAY_LABELS.map((label, i) => (
                  <Chip key={label} value={String(i)} size="xs">
                    {label}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {(field('recurrence.days') || field('recurrence')) && (
              <Text size="xs" c="red" mt={4}>
                {field('recurrence.days') ?? field('recurrence')}
              </Text>
            )}
          </div>
          <Group grow align="flex-start">
            <TextInput type="time" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} error={field('recurrence.from')} withAsterisk />
            <TextInput type="time" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} error={field('recurrence.to')} withAsterisk />
          </Group>
          {to <= from && (
            <Text size="xs" c="dimmed" mt={-6}>
              Each occurrence runs into the next day.
            </Text>
          )}
          <Select label="Time zone" data={timeZones()} value={timeZone} onChange={(v) => v && setTimeZone(v)} searchable allowDeselect={false} error={field('recurrence.timeZone')} comboboxProps={{ withinPortal: true }} />
          <TextInput type="datetime-local" label="Last day (optional)" description="No occurrence starts after it." value={until} onChange={(e) => setUntil(e.currentTarget.value)} error={field('until')} />
        </>
      )}
      <MultiSelect
        label="Clients"
        description="Leave clients and integrations empty to cover every alert of the organization."
        placeholder={clients.isPending ? 'Loading...' : clientIds.length ? undefined : 'All clients'}
        data={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        value={clientIds}
        onChange={setClientIds}
        error={field('scope.clientIds') || (clients.isError ? 'Clients could not be loaded' : undefined)}
        searchable
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label="Integrations"
        placeholder={integrations.isPending ? 'Loading...' : integrationIds.length ? undefined : 'All integrations'}
        data={(integrations.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
        value={integrationIds}
        onChange={setIntegrationIds}
        error={field('scope.integrationIds') || (integrations.isError ? 'Integrations could not be loaded' : undefined)}
        searchable
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      <Text size="xs" c="dimmed">
        {MAINTENANCE_MSG.formHint}
      </Text>
    </FormModal>
  );
}
