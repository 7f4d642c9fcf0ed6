import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { SCHEDULE_MSG, type Schedule } from '../../../../../contract/schedules.ts';
import { ConfirmDeleteModal, type DeleteTexts } from '../../../components/ConfirmDeleteModal.tsx';
import { useDeleteSchedule } from '../api/schedules.ts';

const TEXTS: DeleteTexts<Schedule> = { title: 'Delete Schedule', question: (s) => SCHEDULE_MSG.deleteConfirm(s.name), deleted: SCHEDULE_MSG.deleted, failed: SCHEDULE_MSG.deleteFailed };

/** Delete confirmation; warns when the schedule is the tenant's default (spec section 2). Cancel stays offered while it deletes. */
export function ScheduleDeleteModal({ tenantId, schedule, onClose }: { tenantId: string; schedule: Schedule | null; onClose: () => void }) {
  return (
    <ConfirmDeleteModal record={schedule} remove={useDeleteSchedule(tenantId)} texts={TEXTS} questionSize="sm" cancelDisabled={false} onClose={onClose} data-testid="schedule-delete-modal">
      {schedule?.isDefault && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="default-warning">
          {SCHEDULE_MSG.deleteDefaultWarning}
        </Alert>
      )}
    </ConfirmDeleteModal>
  );
}
