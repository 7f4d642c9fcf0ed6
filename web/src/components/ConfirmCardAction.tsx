import type { ReactNode } from 'react';
import { ConfirmModal } from './ConfirmModal.tsx';
import { notifyActionFailed } from './notify-action-failed.ts';

/** What the dialog needs of the action's mutation (TanStack Query's `useMutation` result for a record's id). */
interface CardMutation<R> {
  mutate(id: string, options: { onSuccess: (result: R) => void; onError: (err: unknown) => void }): void;
  isPending: boolean;
}

/**
 * Asks before an action of a record's card (rotate a key, renew a URL, revoke, delete) and runs it: the dialog closes
 * when it is done (`onDone` then shows what came of it); a failure is a red notification.
 */
export function ConfirmCardAction<T extends { id: string }, R>({
  target,
  action,
  title,
  confirmLabel,
  color,
  onClose,
  onDone,
  children,
}: {
  /** The record asked about; the dialog is open while there is one. */
  target: T | null;
  action: CardMutation<R>;
  title: string;
  confirmLabel: string;
  color: 'orange' | 'red';
  onClose: () => void;
  /** After the dialog closed: what came of it (a notification, the new secret shown once). */
  onDone: (result: R, target: T) => void;
  /** The question. */
  children: ReactNode;
}) {
  const confirm = () => {
    if (!target) return;
    action.mutate(target.id, {
      onSuccess: (result) => {
        onClose();
        onDone(result, target);
      },
      onError: notifyActionFailed,
    });
  };
  return (
    <ConfirmModal opened={!!target} title={title} confirmLabel={confirmLabel} color={color} centered={false} data-testid="confirm-modal" loading={action.isPending} onClose={onClose} onConfirm={confirm}>
      {children}
    </ConfirmModal>
  );
}
