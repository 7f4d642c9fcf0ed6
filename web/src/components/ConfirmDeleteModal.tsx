import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmModal } from './ConfirmModal.tsx';

/** What the dialog needs of a delete mutation (TanStack Query's `useMutation` result for a record's id). */
export interface DeleteMutation {
  mutate(id: string, options: { onSuccess: () => void }): void;
  reset(): void;
  isPending: boolean;
  error: unknown;
}

/** The spec's texts for deleting one kind of record. */
export interface DeleteTexts<T> {
  title: string;
  /** The question, naming the record. */
  question: (record: T) => string;
  /** The notification once it is deleted. */
  deleted: string;
  /** The failure's title, shown in the dialog. */
  failed: string;
}

export interface ConfirmDeleteModalProps<T extends { id: string }> {
  /** The record asked about; the dialog is open while there is one. */
  record: T | null;
  remove: DeleteMutation;
  texts: DeleteTexts<T>;
  questionSize?: 'sm';
  /** Cancel is not offered while the delete runs, unless this says otherwise. */
  cancelDisabled?: boolean;
  onClose: () => void;
  'data-testid': string;
  /** What else the person should know before deciding (a warning for a default record). */
  children?: ReactNode;
}

/**
 * The delete confirmation of a record: its question, Cancel and a red Delete; on success a notification and the
 * dialog closes; a failure stays in the dialog (the mutation's error) until it is closed.
 */
export function ConfirmDeleteModal<T extends { id: string }>({ record, remove, texts, questionSize, cancelDisabled = remove.isPending, onClose, 'data-testid': testId, children }: ConfirmDeleteModalProps<T>) {
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!record) return;
    remove.mutate(record.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: texts.deleted });
        close();
      },
    });
  };
  return (
    <ConfirmModal
      opened={!!record}
      title={texts.title}
      confirmLabel="Delete"
      loading={remove.isPending}
      cancelDisabled={cancelDisabled}
      onConfirm={confirm}
      onClose={close}
      failure={{ title: texts.failed, error: remove.error }}
      data-testid={testId}
    >
      {record && (
        <Text size={questionSize} className="wrap-anywhere">
          {texts.question(record)}
        </Text>
      )}
      {children}
    </ConfirmModal>
  );
}
