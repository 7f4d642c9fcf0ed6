import { Text } from '@mantine/core';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import type { useDeleteConfirmation } from './use-delete-confirmation.ts';

/** The delete question of a System Admin list's row, driven by useDeleteConfirmation; a failure stays in it. */
export function AdminDeleteModal<T extends { id: string }>({
  confirmation,
  remove,
  title,
  failureTitle,
  question,
}: {
  confirmation: ReturnType<typeof useDeleteConfirmation<T>>;
  remove: { isPending: boolean; error: unknown };
  title: string;
  failureTitle: string;
  question: (row: T) => string;
}) {
  const { deleting, confirm, close } = confirmation;
  return (
    <ConfirmModal opened={deleting !== null} title={title} confirmLabel="Delete" loading={remove.isPending} onConfirm={confirm} onClose={close} failure={{ title: failureTitle, error: remove.error }}>
      <Text>{deleting ? question(deleting) : ''}</Text>
    </ConfirmModal>
  );
}
