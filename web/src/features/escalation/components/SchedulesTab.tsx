import { useState } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCalendarTime, IconPlus } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import type { Schedule } from '../../../../../contract/schedules.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useOnCallMembers, useOnCallNow, useSchedules } from '../api/schedules.ts';
import { ScheduleCard } from './ScheduleCard.tsx';
import { ScheduleDeleteModal } from './ScheduleDeleteModal.tsx';
import { ScheduleFormModal } from './ScheduleFormModal.tsx';

/** Tab On-Call Schedules (spec section 2): the tenant's schedules as cards with who is on call, create, edit, delete. */
export function SchedulesTab({ tenantId, canManage = true }: { tenantId: string; canManage?: boolean }) {
  const schedules = useSchedules(tenantId);
  const members = useOnCallMembers(tenantId);
  const onCall = useOnCallNow(tenantId);
  const [form, setForm] = useState<{ schedule: Schedule | null } | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [openTimeline, setOpenTimeline] = useState<string | null>(null);

  if (schedules.isPending || members.isPending) return <Loading />;
  if (schedules.isError || members.isError) {
    return (
      <LoadError
        message={MSG.escalationLoadFailed}
        onRetry={() => {
          for (const q of [schedules, members, onCall]) if (q.isError) void q.refetch();
        }}
      />
    );
  }

  const names = new Map(members.data.map((m) => [m.userId, m.displayName]));
  const userName = (id: string) => names.get(id) ?? MSG.unknownUser;
  const isMember = (id: string) => names.has(id);
  const nowBySchedule = new Map((onCall.data?.items ?? []).map((i) => [i.scheduleId, i]));

  return (
    <Stack gap="md" data-testid="schedules-tab">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          Who is on call, hour by hour, in each schedule&apos;s own time zone. Escalation policies page whoever is on call when an alert opens.
        </Text>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ schedule: null })}>
            Create Schedule
          </Button>
        )}
      </Group>

      {schedules.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconCalendarTime size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="schedules-empty">
            {MSG.noSchedules}
          </Text>
        </Paper>
      ) : (
        <Stack gap="md">
          {onCall.isError && (
            <Text size="sm" c="red" role="alert">
              {MSG.escalationLoadFailed}
            </Text>
          )}
          {schedules.data.map((s) => (
            <ScheduleCard
              key={s.id}
              tenantId={tenantId}
              schedule={s}
              onCall={nowBySchedule.get(s.id)}
              userName={userName}
              isMember={isMember}
              timelineOpen={openTimeline === s.id}
              onToggleTimeline={() => setOpenTimeline((cur) => (cur === s.id ? null : s.id))}
              onEdit={canManage ? () => setForm({ schedule: s }) : undefined}
              onDelete={canManage ? () => setDeleting(s) : undefined}
            />
          ))}
        </Stack>
      )}

      <ScheduleFormModal tenantId={tenantId} schedule={form?.schedule ?? null} opened={!!form} members={members.data} onClose={() => setForm(null)} />
      <ScheduleDeleteModal tenantId={tenantId} schedule={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
