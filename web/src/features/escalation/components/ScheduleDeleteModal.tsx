import { Alert, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { SCHEDULE_MSG, type Schedule } from '../../../../../contract/schedules.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useDeleteSchedule } from '../api/schedules.ts';

/** Delete confirmation; warns when the schedule is the tenant's default (spec section 2). */
export function ScheduleDeleteModal({ tenantId, schedule, onClose }: { tenantId: string; schedule: Schedule | null; onClose: () => void }) {
  const remove = useDeleteSchedule(tenantId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={!!schedule}
      title="Delete Schedule"
      confirmLabel="Delete"
      loading={remove.isPending}
      failure={{ title: SCHEDULE_MSG.deleteFailed, error: remove.error }}
      onClose={close}
      onConfirm={() =>
        schedule &&
        remove.mutate(schedule.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: SCHEDULE_MSG.deleted });
            close();
          },
        })
      }
      data-testid="schedule-delete-modal"
    >
      <Text size="sm" className="wrap-anywhere">
        {schedule ? SCHEDULE_MSG.deleteConfirm(schedule.name) : ''}
      </Text>
      {schedule?.isDefault && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="default-warning">
          {SCHEDULE_MSG.deleteDefaultWarning}
        </Alert>
      )}
    </ConfirmModal>
  );
}
