import { useState } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Divider, Group, Modal, NativeSelect, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  SCHEDULE_LIMITS,
  SCHEDULE_MSG,
  ScheduleInput,
  WEEKDAYS,
  WEEKDAY_KEYS,
  formatHour,
  fullDayShift,
  withNewShift,
  withoutShift,
  type OnCallMember,
  type Schedule,
  type ScheduleInputBody,
  type WeekdayKey,
} from '../../../../../contract/schedules.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';
import { useSaveSchedule } from '../api/schedules.ts';
import { browserTimeZone, defaultPeriod, timeZoneChoices } from './ScheduleTimes.ts';
import { LayersEditor, layersFromSchedule, layersToBody, type FormLayer } from './LayersEditor.tsx';

interface FormShift {
  startHour: number;
  endHour: number;
  primaryOnCall: string;
  secondaryOnCall: string;
}
type FormRotations = Record<WeekdayKey, FormShift[]>;
interface FormState {
  name: string;
  description: string;
  startTime: string;
  endTime: string;
  /** No end date (issue 27): `endTime` is kept for when it is unticked. */
  noEnd: boolean;
  timeZone: string;
  isDefault: boolean;
  rotations: FormRotations;
  layers: FormLayer[];
  /** Whether the weekly shifts apply (beneath the layers); without layers they always do. */
  template: boolean;
}

const blank = (hours: { startHour: number; endHour: number }): FormShift => ({ ...hours, primaryOnCall: '', secondaryOnCall: '' });
const fullDay = () => blank(fullDayShift());
const addShift = (shifts: FormShift[]) => withNewShift(shifts, blank);
const removeShift = (shifts: FormShift[], index: number) => withoutShift(shifts, index, blank);

function initialState(schedule: Schedule | null, members: OnCallMember[]): FormState {
  if (!schedule) {
    return {
      name: '',
      description: '',
      ...defaultPeriod(),
      noEnd: false,
      timeZone: browserTimeZone(),
      isDefault: false,
      rotations: Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, [fullDay()]])) as FormRotations,
      layers: [],
      template: true,
    };
  }
  // People no longer in the tenant are left empty, so saving asks for someone else instead of failing.
  const known = new Set(members.map((m) => m.userId));
  const keep = (id: string | null) => (id && known.has(id) ? id : '');
  return {
    name: schedule.name,
    description: schedule.description ?? '',
    startTime: schedule.startTime,
    endTime: schedule.endTime ?? defaultPeriod().endTime,
    noEnd: schedule.endTime === null,
    timeZone: schedule.timeZone,
    isDefault: schedule.isDefault,
    rotations: Object.fromEntries(
      WEEKDAY_KEYS.map((k) => [
        k,
        schedule.rotations[k].length
          ? schedule.rotations[k].map((s) => ({ startHour: s.startHour, endHour: s.endHour, primaryOnCall: keep(s.primaryOnCall), secondaryOnCall: keep(s.secondaryOnCall) }))
          : [fullDay()],
      ]),
    ) as FormRotations,
    layers: layersFromSchedule(schedule.layers, schedule.timeZone, known),
    template: !schedule.layers.length || WEEKDAY_KEYS.some((k) => schedule.rotations[k].length > 0),
  };
}

const toBody = (f: FormState): ScheduleInputBody => ({
  name: f.name,
  description: f.description,
  startTime: f.startTime,
  endTime: f.noEnd ? null : f.endTime,
  timeZone: f.timeZone,
  isDefault: f.isDefault,
  rotations: Object.fromEntries(
    WEEKDAY_KEYS.map((k) => [
      k,
      f.template || !f.layers.length ? f.rotations[k].map((s) => ({ startHour: s.startHour, endHour: s.endHour, primaryOnCall: s.primaryOnCall || null, secondaryOnCall: s.secondaryOnCall || null })) : [],
    ]),
  ) as ScheduleInputBody['rotations'],
  layers: layersToBody(f.layers, f.timeZone),
});

const START_HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: formatHour(h) }));
const END_HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h + 1), label: h + 1 === 24 ? '12 AM (midnight)' : formatHour(h + 1) }));

export interface ScheduleFormModalProps {
  tenantId: string;
  /** null: a new schedule. */
  schedule: Schedule | null;
  opened: boolean;
  members: OnCallMember[];
  onClose: () => void;
}

/** Create or edit a schedule: name, description, dates, zone, default, and per weekday its shifts and people. */
export function ScheduleFormModal(props: ScheduleFormModalProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.schedule ? 'Edit Schedule' : 'Create Schedule'}
      size="xl"
      fullScreen={!!phone}
      closeOnClickOutside={false}
    >
      {/* Mounted per opening, so the form starts from the schedule (or the defaults) every time. */}
      {props.opened && <ScheduleForm key={props.schedule?.id ?? 'new'} {...props} />}
    </Modal>
  );
}

function ScheduleForm({ tenantId, schedule, members, onClose }: ScheduleFormModalProps) {
  const [form, setForm] = useState<FormState>(() => initialState(schedule, members));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveSchedule(tenantId);
  const people = [...members.map((m) => ({ value: m.userId, label: m.displayName }))];

  const clear = (...keys: string[]) =>
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(next)) if (keys.some((p) => k === p || k.startsWith(`${p}.`))) delete next[k];
      return next;
    });
  const set = (patch: Partial<FormState>) => {
    setForm((f) => ({ ...f, ...patch }));
    clear(...Object.keys(patch));
  };
  const setDay = (k: WeekdayKey, shifts: FormShift[]) => {
    setForm((f) => ({ ...f, rotations: { ...f.rotations, [k]: shifts } }));
    clear(`rotations.${k}`);
  };
  const setShift = (k: WeekdayKey, i: number, patch: Partial<FormShift>) => setDay(k, form.rotations[k].map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const copyToAll = (k: WeekdayKey) => {
    setForm((f) => ({ ...f, rotations: Object.fromEntries(WEEKDAY_KEYS.map((d) => [d, f.rotations[k].map((s) => ({ ...s }))])) as FormRotations }));
    clear('rotations');
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = toBody(form);
    // The same rules as the server, in the spec's order, before anything is sent.
    const parsed = ScheduleInput.safeParse(body);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const i of parsed.error.issues) fields[i.path.join('.')] ??= i.message;
      return setErrors(fields);
    }
    try {
      await save.mutateAsync({ id: schedule?.id ?? null, body });
      notifications.show({ color: 'green', message: schedule ? SCHEDULE_MSG.updated : SCHEDULE_MSG.created });
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
    }
  };

  const firstError = Object.values(errors)[0];
  const dayError = (k: WeekdayKey) => errors[`rotations.${k}`] ?? Object.entries(errors).find(([f]) => f.startsWith(`rotations.${k}.`))?.[1];

  return (
    <form onSubmit={submit} noValidate data-testid="schedule-form">
      <Stack>
        <TextInput label="Name" required value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.name} maxLength={SCHEDULE_LIMITS.name} />
        <Textarea label="Description" autosize minRows={2} value={form.description} onChange={(e) => set({ description: e.currentTarget.value })} error={errors.description} maxLength={SCHEDULE_LIMITS.description} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput type="date" label="Start date" value={form.startTime} onChange={(e) => set({ startTime: e.currentTarget.value })} error={errors.startTime} />
          <Stack gap={6}>
            <TextInput type="date" label="End date" value={form.noEnd ? '' : form.endTime} disabled={form.noEnd} onChange={(e) => set({ endTime: e.currentTarget.value })} error={errors.endTime} />
            <Checkbox size="xs" label={SCHEDULE_MSG.noEnd} title={SCHEDULE_MSG.noEndHelp} checked={form.noEnd} onChange={(e) => set({ noEnd: e.currentTarget.checked, endTime: form.endTime })} data-testid="schedule-no-end" />
          </Stack>
          <Select
            label="Time zone"
            searchable
            allowDeselect={false}
            data={timeZoneChoices(form.timeZone)}
            value={form.timeZone}
            onChange={(v) => v && set({ timeZone: v })}
            error={errors.timeZone}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Checkbox label="Default schedule" description="Only one schedule is the default; saving this one as default clears the flag on the other." checked={form.isDefault} onChange={(e) => set({ isDefault: e.currentTarget.checked })} />

        <Divider label="Rotation layers" labelPosition="left" />
        <LayersEditor
          layers={form.layers}
          onChange={(layers) => {
            setForm((f) => ({ ...f, layers }));
            clear('layers');
          }}
          people={people}
          timeZone={form.timeZone}
          errors={errors}
        />

        <Divider label="Weekly shifts (hours in the schedule's time zone)" labelPosition="left" />
        {form.layers.length > 0 && (
          <Checkbox
            label="Weekly shifts beneath the layers"
            description="Who is on call where no layer has someone, and the secondary."
            checked={form.template}
            onChange={(e) => set({ template: e.currentTarget.checked })}
            data-testid="schedule-template-toggle"
          />
        )}
        {(form.template || !form.layers.length) && WEEKDAY_KEYS.map((k, d) => (
          <Paper key={k} withBorder radius="md" p="sm" data-testid={`day-${k}`}>
            <Stack gap="xs">
              <Group justify="space-between" gap="xs">
                <Text fw={600}>{WEEKDAYS[d]}</Text>
                <Group gap="xs">
                  <Tooltip label={`Use ${WEEKDAYS[d]}'s shifts on every day`}>
                    <Button size="compact-xs" variant="subtle" leftSection={<IconCopy size={14} />} onClick={() => copyToAll(k)}>
                      Copy to all days
                    </Button>
                  </Tooltip>
                  <Button size="compact-xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDay(k, addShift(form.rotations[k]))} disabled={form.rotations[k].length >= SCHEDULE_LIMITS.shiftsPerDay}>
                    Add shift
                  </Button>
                </Group>
              </Group>
              {form.rotations[k].map((s, i) => (
                <Group
                  key={i}
                  gap="xs"
                  align="flex-start"
                  wrap="nowrap"
                  data-testid="shift-row"
                  pt={i > 0 ? 'xs' : 0}
                  style={i > 0 ? { borderTop: '1px dashed var(--mantine-color-default-border)' } : undefined}
                >
                  <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" verticalSpacing="xs" className="grow">
                    <NativeSelect
                      size="xs"
                      label="Start"
                      data={START_HOURS}
                      value={String(s.startHour)}
                      onChange={(e) => setShift(k, i, { startHour: Number(e.currentTarget.value) })}
                      error={errors[`rotations.${k}.${i}.startHour`]}
                    />
                    <NativeSelect
                      size="xs"
                      label="End"
                      data={END_HOURS}
                      value={String(s.endHour)}
                      onChange={(e) => setShift(k, i, { endHour: Number(e.currentTarget.value) })}
                      error={errors[`rotations.${k}.${i}.endHour`]}
                    />
                    <NativeSelect
                      size="xs"
                      label="Primary"
                      data={[{ value: '', label: 'Choose…' }, ...people]}
                      value={s.primaryOnCall}
                      onChange={(e) => setShift(k, i, { primaryOnCall: e.currentTarget.value })}
                      error={errors[`rotations.${k}.${i}.primaryOnCall`] ? true : undefined}
                    />
                    <NativeSelect
                      size="xs"
                      label="Secondary"
                      data={[{ value: '', label: 'None' }, ...people]}
                      value={s.secondaryOnCall}
                      onChange={(e) => setShift(k, i, { secondaryOnCall: e.currentTarget.value })}
                      error={errors[`rotations.${k}.${i}.secondaryOnCall`]}
                    />
                  </SimpleGrid>
                  <Tooltip label={form.rotations[k].length > 1 ? 'Remove shift' : 'Reset to a full-day shift'}>
                    <ActionIcon variant="subtle" color="red" mt={22} aria-label={`Remove ${WEEKDAYS[d]} shift ${i + 1}`} onClick={() => setDay(k, removeShift(form.rotations[k], i))}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ))}
              {dayError(k) && (
                <Text size="sm" c="red" role="alert">
                  {dayError(k)}
                </Text>
              )}
            </Stack>
          </Paper>
        ))}

        {firstError && (
          <Alert color="red" role="alert" data-testid="schedule-form-error">
            {firstError}
          </Alert>
        )}
        {save.isError && !Object.keys(serverFieldErrors(save.error)).length && <FailureAlert title={schedule ? SCHEDULE_MSG.updateFailed : SCHEDULE_MSG.createFailed} error={save.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {schedule ? 'Save Changes' : 'Create Schedule'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
