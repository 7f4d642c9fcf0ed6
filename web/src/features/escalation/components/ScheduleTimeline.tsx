import { useState } from 'react';
import { ActionIcon, Alert, Box, Button, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { SCHEDULE_MSG, type Override, type Schedule, type Timeline } from '../../../../../contract/schedules.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useDeleteOverride, useScheduleOverrides, useScheduleTimeline } from '../api/schedules.ts';
import { OnCallOverrideModal } from './OnCallOverrideModal.tsx';
import { browserTimeZone, formatClock, formatInZone, viewerTimeIfDifferent } from './ScheduleTimes.ts';

const ms = (iso: string) => Date.parse(iso);

/** One local day of the schedule's zone as a bar: shifts (overrides in violet) and gaps (red) in proportion. */
function DayBar({ day, timeline, userName }: { day: Timeline['days'][number]; timeline: Timeline; userName: (id: string) => string }) {
  const [a, b] = [ms(day.start), ms(day.end)];
  const span = b - a;
  const pieces = [
    ...timeline.segments.map((s) => ({ kind: s.primaryOverride || s.secondaryOverride ? 'override' : 'shift', start: ms(s.start), end: ms(s.end), s })),
    ...timeline.gaps.map((g) => ({ kind: 'gap', start: ms(g.start), end: ms(g.end), s: null })),
  ].filter((p) => p.end > a && p.start < b);
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Text size="xs" w={92} className="no-shrink nowrap" fw={600}>
        {day.label}
      </Text>
      <Box pos="relative" h={26} className="grow" style={{ borderRadius: 4, background: 'var(--mantine-color-default-hover)', overflow: 'hidden' }}>
        {pieces.map((p) => {
          const start = Math.max(p.start, a);
          const end = Math.min(p.end, b);
          const label = p.s
            ? `${userName(p.s.primary)}${p.s.secondary ? ` · backup ${userName(p.s.secondary)}` : ''}${p.kind === 'override' ? ' (override)' : ''}`
            : SCHEDULE_MSG.nobodyOnCall;
          const when = `${formatClock(new Date(start).toISOString(), timeline.timeZone)} – ${formatClock(new Date(end).toISOString(), timeline.timeZone)}`;
          const color = p.kind === 'gap' ? 'red' : p.kind === 'override' ? 'violet' : 'blue';
          return (
            <Tooltip key={`${p.kind}-${start}`} label={`${when}: ${label}`} withinPortal>
              <Box
                data-testid={`timeline-${p.kind}`}
                data-label={label}
                pos="absolute"
                top={0}
                bottom={0}
                left={`${((start - a) / span) * 100}%`}
                w={`${((end - start) / span) * 100}%`}
                px={4}
                style={{
                  background: `var(--mantine-color-${color}-light)`,
                  borderLeft: `2px solid var(--mantine-color-${color}-filled)`,
                  display: 'flex',
                  alignItems: 'center',
                  overflow: 'hidden',
                }}
              >
                <Text size="xs" truncate="end" c={`var(--mantine-color-${color}-light-color)`}>
                  {p.kind === 'gap' ? '' : userName(p.s!.primary)}
                </Text>
              </Box>
            </Tooltip>
          );
        })}
      </Box>
    </Group>
  );
}

/** The next 14 days of a schedule in its own zone, its coverage gaps, and its overrides (add, remove). */
export function ScheduleTimeline({ tenantId, schedule, userName }: { tenantId: string; schedule: Schedule; userName: (id: string) => string }) {
  const timeline = useScheduleTimeline(tenantId, schedule.id);
  const overrides = useScheduleOverrides(tenantId, schedule.id);
  const remove = useDeleteOverride(tenantId, schedule.id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Override | null>(null);

  if (timeline.isPending || overrides.isPending) {
    return (
      <Group gap="xs" py="sm">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {MSG.loading}
        </Text>
      </Group>
    );
  }
  if (timeline.isError || overrides.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={MSG.escalationLoadFailed}>
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => {
            void timeline.refetch();
            void overrides.refetch();
          }}
        >
          Retry
        </Button>
      </Alert>
    );
  }

  const tl = timeline.data;
  return (
    <Stack gap="sm" pt="xs" data-testid="schedule-timeline">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Next 14 days ({tl.timeZone})
        </Text>
        <Group gap="xs">
          {(['blue', 'violet', 'red'] as const).map((c, i) => (
            <Group key={c} gap={4} wrap="nowrap">
              <Box w={10} h={10} style={{ borderRadius: 2, background: `var(--mantine-color-${c}-filled)` }} />
              <Text size="xs" c="dimmed">
                {['Rotation', 'Override', 'Gap'][i]}
              </Text>
            </Group>
          ))}
        </Group>
      </Group>
      <Stack gap={4}>
        {tl.days.map((d) => (
          <DayBar key={d.date} day={d} timeline={tl} userName={userName} />
        ))}
      </Stack>
      {tl.gaps.length > 0 && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} p="xs" data-testid="timeline-gaps">
          <Stack gap={0}>
            {tl.gaps.map((g) => (
              <Text key={g.start} size="sm">
                {g.label}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      <Group justify="space-between" gap="xs" mt="xs">
        <Text size="sm" fw={600}>
          Overrides
        </Text>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
          Add override
        </Button>
      </Group>
      {overrides.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No overrides. Add one when someone swaps a shift or is away.
        </Text>
      ) : (
        <Stack gap={6} data-testid="override-list">
          {overrides.data.map((o) => (
            <Paper key={o.id} withBorder radius="sm" p="xs" data-testid="override-row">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} className="min-w-0">
                  <Text size="sm" className="wrap-anywhere">
                    <Text span fw={600}>
                      {userName(o.userId)}
                    </Text>{' '}
                    covers for {userName(o.replacedUserId)}
                  </Text>
                  <Text size="xs" c="dimmed" data-testid="override-times">
                    {formatInZone(o.startsAt, schedule.timeZone)} – {formatInZone(o.endsAt, schedule.timeZone)} ({schedule.timeZone})
                    {o.note ? ` · ${o.note}` : ''}
                  </Text>
                  {/* The viewer's own clock beside the schedule's, when it reads differently. */}
                  {(viewerTimeIfDifferent(o.startsAt, schedule.timeZone) ?? viewerTimeIfDifferent(o.endsAt, schedule.timeZone)) && (
                    <Text size="xs" c="dimmed" data-testid="override-times-local">
                      your time: {formatInZone(o.startsAt, browserTimeZone())} – {formatInZone(o.endsAt, browserTimeZone())}
                    </Text>
                  )}
                </Stack>
                <Tooltip label="Remove override">
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove override for ${userName(o.replacedUserId)}`} onClick={() => setRemoving(o)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      <OnCallOverrideModal tenantId={tenantId} schedule={schedule} opened={adding} onClose={() => setAdding(false)} />
      <ConfirmModal
        opened={!!removing}
        title="Remove override"
        confirmLabel="Remove"
        loading={remove.isPending}
        failure={{ title: SCHEDULE_MSG.overrideDeleteFailed, error: remove.error }}
        onClose={() => {
          remove.reset();
          setRemoving(null);
        }}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifications.show({ color: 'green', message: SCHEDULE_MSG.overrideDeleted });
              setRemoving(null);
            },
          })
        }
      >
        <Text size="sm">{SCHEDULE_MSG.overrideDeleteConfirm}</Text>
      </ConfirmModal>
    </Stack>
  );
}
