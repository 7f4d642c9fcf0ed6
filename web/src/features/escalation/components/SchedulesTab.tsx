import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import type { Schedule } from '../../../../../contract/schedules.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { EmptyCard } from '../../../components/EmptyCard.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PanelHeader } from '../../../components/PanelHeader.tsx';
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
      <PanelHeader
        description="Who is on call, hour by hour, in each schedule's own time zone. Escalation policies page whoever is on call when an alert opens."
        action={canManage && <AddButton onClick={() => setForm({ schedule: null })}>Create Schedule</AddButton>}
      />

      {schedules.data.length === 0 ? (
        <EmptyCard icon={IconCalendarTime} data-testid="schedules-empty">
          {MSG.noSchedules}
        </EmptyCard>
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
