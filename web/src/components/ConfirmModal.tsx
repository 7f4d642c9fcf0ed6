import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { FailureAlert } from './FailureAlert.tsx';

export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  /** The question (and whatever else the person should see before deciding). */
  children: ReactNode;
  confirmLabel: string;
  /** The button that leaves without acting (when "Cancel" would be ambiguous, e.g. cancelling a request). */
  cancelLabel?: string;
  /** Red for what deletes or removes. */
  color?: string;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** When `error` is set, the spec's failure text for the action (and the server's reason) above the buttons. */
  failure?: { title: string; error: unknown };
  centered?: boolean;
  /** Cancel is not offered while the action runs. */
  cancelDisabled?: boolean;
  'data-testid'?: string;
}

/** A yes-or-no question about one action: the text, Cancel, and the action's button. */
export function ConfirmModal({ opened, title, children, confirmLabel, cancelLabel = 'Cancel', color = 'red', loading, onConfirm, onClose, failure, centered = true, cancelDisabled, 'data-testid': testId }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered={centered} data-testid={testId}>
      <Stack>
        {children}
        {failure?.error ? <FailureAlert title={failure.title} error={failure.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={cancelDisabled}>
            {cancelLabel}
          </Button>
          <Button color={color} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
