import { useState } from 'react';
import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { OverrideInput, SCHEDULE_MSG, WEEKDAY_KEYS, type Schedule } from '../../../../../contract/schedules.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';
import { useCreateOverride, useOnCallMembers } from '../api/schedules.ts';

/** datetime-local text ("2026-07-01T09:00") of a moment, in the viewer's zone. */
const localInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};
const toIso = (local: string) => {
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
};

function initial() {
  const start = new Date();
  start.setMinutes(0, 0, 0);
  return { replacedUserId: '', userId: '', startsAt: localInput(start), endsAt: localInput(new Date(start.getTime() + 86_400_000)), note: '' };
}

/** Someone takes a person's place on this schedule for a time range (times in the viewer's zone). */
export function OnCallOverrideModal({ tenantId, schedule, opened, onClose }: { tenantId: string; schedule: Schedule; opened: boolean; onClose: () => void }) {
  const members = useOnCallMembers(tenantId);
  const create = useCreateOverride(tenantId, schedule.id);
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});

  // The people of the rotation first: those are the ones an override can replace.
  const inRotation = new Set(WEEKDAY_KEYS.flatMap((k) => schedule.rotations[k].flatMap((s) => [s.primaryOnCall, s.secondaryOnCall])).filter((x): x is string => !!x));
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
    setForm(initial());
    setErrors({});
    create.reset();
    onClose();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = { ...form, startsAt: toIso(form.startsAt), endsAt: toIso(form.endsAt) };
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
            <TextInput type="datetime-local" label="From" value={form.startsAt} onChange={(e) => set({ startsAt: e.currentTarget.value })} error={errors.startsAt} />
            <TextInput type="datetime-local" label="Until" value={form.endsAt} onChange={(e) => set({ endsAt: e.currentTarget.value })} error={errors.endsAt} />
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
