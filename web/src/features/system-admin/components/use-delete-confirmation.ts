import { useState } from 'react';
import { notifications } from '@mantine/notifications';

/**
 * Deleting a row of a System Admin list after asking: which row is being asked about, asking (which clears the last
 * failure), and confirming (a notification on success; a failure stays in the dialog through the mutation's error).
 */
export function useDeleteConfirmation<T extends { id: string }>(remove: { reset(): void; mutateAsync(id: string): Promise<unknown> }, deletedMessage: (row: T) => string) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const ask = (row: T) => {
    remove.reset();
    setDeleting(row);
  };
  const confirm = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: deletedMessage(deleting) });
      setDeleting(null);
    } catch {
      // Shown in the dialog.
    }
  };
  return { deleting, ask, confirm, close: () => setDeleting(null) };
}
