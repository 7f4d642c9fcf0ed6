import { ActionIcon, Button, Checkbox, Chip, Group, NativeSelect, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { SCHEDULE_LIMITS, SHIFT_UNITS, WEEKDAYS, type Layer, type LayerInputBody } from '../../../../../contract/schedules.ts';
import { formatInZone, isoToZoned, previewHandoffs, zonedToIso } from './ScheduleTimes.ts';

/** A layer as the form edits it: the first handoff as a date and a time on the schedule's wall clock. */
export interface FormLayer {
  name: string;
  participants: string[];
  startDate: string;
  startTime: string;
  unit: (typeof SHIFT_UNITS)[number];
  count: number;
  restricted: boolean;
  restrictions: Array<{ days: number[]; from: string; to: string }>;
}

const UNIT_LABEL = { hours: 'hours', days: 'days', weeks: 'weeks' } as const;
const OFFICE_HOURS = () => ({ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' });

/** Next Monday 09:00, the usual first handoff of a weekly rotation. */
function nextMonday(): string {
  const d = new Date();
  d.setDate(d.getDate() + ((8 - d.getDay()) % 7 || 7));
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export const newLayer = (n: number): FormLayer => ({ name: `Layer ${n}`, participants: [], startDate: nextMonday(), startTime: '09:00', unit: 'weeks', count: 1, restricted: false, restrictions: [] });

export function layersFromSchedule(layers: readonly Layer[], timeZone: string, known: ReadonlySet<string>): FormLayer[] {
  return layers.map((l) => {
    const { date, time } = isoToZoned(l.start, timeZone);
    return {
      name: l.name,
      participants: l.participants.filter((p) => known.has(p)),
      startDate: date,
      startTime: time,
      unit: l.shiftLength.unit,
      count: l.shiftLength.count,
      restricted: l.restrictions.length > 0,
      restrictions: l.restrictions.map((r) => ({ ...r, days: [...r.days] })),
    };
  });
}

export function layersToBody(layers: readonly FormLayer[], timeZone: string): LayerInputBody[] {
  return layers.map((l) => ({
    name: l.name,
    participants: l.participants,
    // An unreadable date or time goes as typed, for the schema to name it.
    start: zonedToIso(l.startDate, l.startTime, timeZone) ?? `${l.startDate}T${l.startTime}`,
    shiftLength: { unit: l.unit, count: l.count },
    restrictions: l.restricted ? l.restrictions : [],
  }));
}

interface Props {
  layers: FormLayer[];
  onChange: (layers: FormLayer[]) => void;
  people: Array<{ value: string; label: string }>;
  timeZone: string;
  errors: Record<string, string>;
}

/**
 * Rotation layers (issue 27): each a list of people taking turns, the first handoff and the shift length, optionally
 * kept to windows of the week; a preview of the next handoffs. Later layers are higher: they win where they have
 * someone, and the weekly template lies beneath them all.
 */
export function LayersEditor({ layers, onChange, people, timeZone, errors }: Props) {
  const name = (id: string) => people.find((p) => p.value === id)?.label ?? 'Former member';
  const update = (i: number, patch: Partial<FormLayer>) => onChange(layers.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const move = <T,>(list: T[], i: number, by: number) => {
    const next = [...list];
    const [x] = next.splice(i, 1);
    next.splice(i + by, 0, x);
    return next;
  };
  const err = (prefix: string) => errors[prefix] ?? Object.entries(errors).find(([k]) => k.startsWith(`${prefix}.`))?.[1];

  return (
    <Stack gap="sm" data-testid="layers-editor">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed" maw={520}>
          People take turns on each layer. A higher layer wins where it has someone; the weekly shifts lie beneath all layers. Times are in {timeZone}.
        </Text>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => onChange([...layers, newLayer(layers.length + 1)])} disabled={layers.length >= SCHEDULE_LIMITS.layers}>
          Add layer
        </Button>
      </Group>
      {[...layers.keys()].reverse().map((i) => {
        const l = layers[i];
        const at = `layers.${i}`;
        const start = zonedToIso(l.startDate, l.startTime, timeZone);
        const preview = start && l.participants.length ? previewHandoffs(start, l.unit, l.count, timeZone, 4) : [];
        return (
          <Paper key={i} withBorder radius="md" p="sm" data-testid="layer">
            <Stack gap="xs">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <TextInput size="xs" aria-label={`Layer ${i + 1} name`} value={l.name} onChange={(e) => update(i, { name: e.currentTarget.value })} error={errors[`${at}.name`]} className="grow" maxLength={SCHEDULE_LIMITS.name} />
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    Layer {i + 1}
                  </Text>
                  <Tooltip label="Higher (wins over the layers below)">
                    <ActionIcon variant="subtle" aria-label={`Move layer ${i + 1} up`} disabled={i === layers.length - 1} onClick={() => onChange(move(layers, i, 1))}>
                      <IconArrowUp size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Lower">
                    <ActionIcon variant="subtle" aria-label={`Move layer ${i + 1} down`} disabled={i === 0} onClick={() => onChange(move(layers, i, -1))}>
                      <IconArrowDown size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Remove layer">
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove layer ${i + 1}`} onClick={() => onChange(layers.filter((_, j) => j !== i))}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>

              <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
                <TextInput size="xs" type="date" label={`First handoff (${timeZone})`} value={l.startDate} onChange={(e) => update(i, { startDate: e.currentTarget.value })} error={errors[`${at}.start`]} />
                <TextInput size="xs" type="time" label="at" value={l.startTime} onChange={(e) => update(i, { startTime: e.currentTarget.value })} />
                <NumberInput size="xs" label="Shift length" min={1} max={365} value={l.count} onChange={(v) => update(i, { count: typeof v === 'number' ? v : 1 })} error={errors[`${at}.shiftLength.count`]} />
                <NativeSelect size="xs" label="Unit" data={SHIFT_UNITS.map((u) => ({ value: u, label: UNIT_LABEL[u] }))} value={l.unit} onChange={(e) => update(i, { unit: e.currentTarget.value as FormLayer['unit'] })} />
              </SimpleGrid>

              <Stack gap={4}>
                <Text size="xs" fw={500}>
                  People, in turn order
                </Text>
                {l.participants.map((p, j) => (
                  <Group key={`${p}-${j}`} gap={4} wrap="nowrap" data-testid="layer-participant">
                    <Text size="sm" w={22} c="dimmed">
                      {j + 1}.
                    </Text>
                    <Text size="sm" className="grow wrap-anywhere">
                      {name(p)}
                    </Text>
                    <ActionIcon size="sm" variant="subtle" aria-label={`Move ${name(p)} earlier`} disabled={j === 0} onClick={() => update(i, { participants: move(l.participants, j, -1) })}>
                      <IconArrowUp size={14} />
                    </ActionIcon>
                    <ActionIcon size="sm" variant="subtle" aria-label={`Move ${name(p)} later`} disabled={j === l.participants.length - 1} onClick={() => update(i, { participants: move(l.participants, j, 1) })}>
                      <IconArrowDown size={14} />
                    </ActionIcon>
                    <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove ${name(p)} from the layer`} onClick={() => update(i, { participants: l.participants.filter((_, k) => k !== j) })}>
                      <IconX size={14} />
                    </ActionIcon>
                  </Group>
                ))}
                <Select
                  size="xs"
                  placeholder="Add a person…"
                  aria-label={`Add a person to layer ${i + 1}`}
                  data={people}
                  value={null}
                  searchable
                  onChange={(v) => v && update(i, { participants: [...l.participants, v] })}
                  error={err(`${at}.participants`)}
                  comboboxProps={{ withinPortal: true }}
                />
              </Stack>

              <Checkbox
                size="xs"
                label="Only at certain times (e.g. weekdays 09:00–17:00)"
                checked={l.restricted}
                onChange={(e) => update(i, { restricted: e.currentTarget.checked, restrictions: e.currentTarget.checked && !l.restrictions.length ? [OFFICE_HOURS()] : l.restrictions })}
              />
              {l.restricted &&
                l.restrictions.map((r, j) => (
                  <Group key={j} gap="xs" align="flex-end" data-testid="layer-restriction">
                    <Chip.Group multiple value={r.days.map(String)} onChange={(v) => update(i, { restrictions: l.restrictions.map((x, k) => (k === j ? { ...x, days: v.map(Number).sort() } : x)) })}>
                      <Group gap={4}>
                        {WEEKDAYS.map((d, n) => (
                          <Chip key={d} size="xs" value={String(n)}>
                            {d.slice(0, 3)}
                          </Chip>
                        ))}
                      </Group>
                    </Chip.Group>
                    <TextInput size="xs" type="time" label="From" value={r.from} onChange={(e) => update(i, { restrictions: l.restrictions.map((x, k) => (k === j ? { ...x, from: e.currentTarget.value } : x)) })} error={errors[`${at}.restrictions.${j}.from`]} />
                    <TextInput size="xs" type="time" label="To" value={r.to} onChange={(e) => update(i, { restrictions: l.restrictions.map((x, k) => (k === j ? { ...x, to: e.currentTarget.value } : x)) })} error={errors[`${at}.restrictions.${j}.to`]} />
                    <ActionIcon variant="subtle" color="red" aria-label="Remove window" onClick={() => update(i, { restrictions: l.restrictions.filter((_, k) => k !== j), restricted: l.restrictions.length > 1 })}>
                      <IconTrash size={14} />
                    </ActionIcon>
                    {errors[`${at}.restrictions.${j}.days`] && (
                      <Text size="xs" c="red">
                        {errors[`${at}.restrictions.${j}.days`]}
                      </Text>
                    )}
                  </Group>
                ))}
              {l.restricted && (
                <Button size="compact-xs" variant="subtle" leftSection={<IconPlus size={12} />} onClick={() => update(i, { restrictions: [...l.restrictions, OFFICE_HOURS()] })} w="fit-content" disabled={l.restrictions.length >= SCHEDULE_LIMITS.restrictions}>
                  Add window
                </Button>
              )}

              {preview.length > 0 && (
                <Text size="xs" c="dimmed" data-testid="layer-preview">
                  Next handoffs: {preview.map((h) => `${formatInZone(h.at, timeZone)} → ${name(l.participants[h.turn % l.participants.length])}`).join(' · ')}
                </Text>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
