import { useState } from 'react';
import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { OverrideInput, SCHEDULE_MSG, WEEKDAY_KEYS, type Schedule } from '../../../../../contract/schedules.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';
import { useCreateOverride, useOnCallMembers } from '../api/schedules.ts';
import { isoToZoned, viewerTimeIfDifferent, zonedToIso } from './ScheduleTimes.ts';

// From and Until are wall-clock times of the schedule's zone (its shifts and timeline are written in it), whatever
// the viewer's own zone: datetime-local text ("2026-07-01T09:00") read and written there.
const toInput = (iso: string, timeZone: string) => {
  const z = isoToZoned(iso, timeZone);
  return `${z.date}T${z.time}`;
};
/** The instant of a datetime-local text in the zone; the text itself when unreadable (the schema then says so). */
const toIso = (local: string, timeZone: string) => {
  const [date = '', time = ''] = local.split('T');
  return zonedToIso(date, time.slice(0, 5), timeZone) ?? local;
};

function initial(timeZone: string) {
  // From the start of the current hour on the schedule's clock, for a day.
  const start = toInput(new Date().toISOString(), timeZone).slice(0, 14) + '00';
  const startIso = toIso(start, timeZone);
  return { replacedUserId: '', userId: '', startsAt: start, endsAt: toInput(new Date(Date.parse(startIso) + 86_400_000).toISOString(), timeZone), note: '' };
}

/** Someone takes a person's place on this schedule for a time range (times in the schedule's zone, the viewer's beside). */
export function OnCallOverrideModal({ tenantId, schedule, opened, onClose }: { tenantId: string; schedule: Schedule; opened: boolean; onClose: () => void }) {
  const members = useOnCallMembers(tenantId);
  const create = useCreateOverride(tenantId, schedule.id);
  const zone = schedule.timeZone;
  const [form, setForm] = useState(() => initial(zone));
  const [errors, setErrors] = useState<Record<string, string>>({});

  // The people of the rotation first: those are the ones an override can replace.
  const inRotation = new Set(
    [...WEEKDAY_KEYS.flatMap((k) => schedule.rotations[k].flatMap((s) => [s.primaryOnCall, s.secondaryOnCall])), ...schedule.layers.flatMap((l) => l.participants)].filter((x): x is string => !!x),
  );
  const all = members.data ?? [];
  const replaceable = [...all.filter((m) => inRotation.has(m.userId)), ...all.filter((m) => !inRotation.has(m.userId))];
  const choices = (list: typeof all, placeholder: string) => [{ value: '', label: placeholder }, ...list.map((m) => ({ value: m.userId, label: m.displayName }))];

  const set = (patch: Partial<typeof form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k];
      return next;
    });
  };
  const close = () => {
    setForm(initial(zone));
    setErrors({});
    create.reset();
    onClose();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = { ...form, startsAt: toIso(form.startsAt, zone), endsAt: toIso(form.endsAt, zone) };
    const parsed = OverrideInput.safeParse(body);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const i of parsed.error.issues) fields[String(i.path[0])] ??= i.message;
      return setErrors(fields);
    }
    try {
      await create.mutateAsync(body);
      notifications.show({ color: 'green', message: SCHEDULE_MSG.overrideCreated });
      close();
    } catch (err) {
      setErrors(serverFieldErrors(err));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={`Add override · ${schedule.name}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect label="Person replaced" value={form.replacedUserId} onChange={(e) => set({ replacedUserId: e.currentTarget.value })} data={choices(replaceable, 'Choose a person')} error={errors.replacedUserId} />
            <NativeSelect label="Covered by" value={form.userId} onChange={(e) => set({ userId: e.currentTarget.value })} data={choices(all, 'Choose a person')} error={errors.userId} />
            {(['startsAt', 'endsAt'] as const).map((field) => {
              const mine = viewerTimeIfDifferent(toIso(form[field], zone), zone);
              return (
                <TextInput
                  key={field}
                  type="datetime-local"
                  label={`${field === 'startsAt' ? 'From' : 'Until'} (${zone})`}
                  description={mine ? `Your time: ${mine}` : undefined}
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                  value={form[field]}
                  onChange={(e) => set({ [field]: e.currentTarget.value })}
                  error={errors[field]}
                  data-testid={`override-${field}`}
                />
              );
            })}
          </SimpleGrid>
          <TextInput label="Note" placeholder="Vacation, sick swap…" value={form.note} onChange={(e) => set({ note: e.currentTarget.value })} error={errors.note} maxLength={200} />
          {create.isError && !Object.keys(serverFieldErrors(create.error)).length && <FailureAlert title={SCHEDULE_MSG.overrideCreateFailed} error={create.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add override
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
