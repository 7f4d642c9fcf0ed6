import { useState } from 'react';
import { ActionIcon, Alert, Box, Button, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { SCHEDULE_MSG, type Override, type Schedule } from '../../../../../contract/schedules.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useDeleteOverride, useScheduleOverrides, useScheduleTimeline } from '../api/schedules.ts';
import { OnCallOverrideModal } from './OnCallOverrideModal.tsx';
import { browserTimeZone, formatInZone, viewerTimeIfDifferent } from './ScheduleTimes.ts';
import { Swatch, TimelineGrid } from './TimelineGrid.tsx';

/** The next 14 days of a schedule in its own zone (each layer, the overrides, the final schedule), its coverage gaps, and its overrides (add, remove). */
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
        <Group gap="sm">
          <Swatch color="gray" dashed>
            Override
          </Swatch>
          <Swatch color="red">{SCHEDULE_MSG.nobodyOnCall}</Swatch>
          <Group gap={4} wrap="nowrap">
            <Box w={2} h={12} bg="var(--mantine-color-text)" opacity={0.55} />
            <Text size="xs" c="dimmed">
              Now
            </Text>
          </Group>
        </Group>
      </Group>
      <TimelineGrid timeline={tl} userName={userName} />
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
