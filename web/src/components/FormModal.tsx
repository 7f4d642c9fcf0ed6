import type { ReactNode } from 'react';
import { Alert as Callout, Button, Group, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';

export interface FormModalProps {
  title: string;
  opened?: boolean;
  size?: string;
  onClose: () => void;
  /** Called on the submit button or Enter; the browser's own submission never happens. */
  onSubmit: () => void;
  /** A failure that belongs to no field, shown above the fields. */
  failure: string | null;
  failureTestId?: string;
  submitLabel: string;
  submitting: boolean;
  submitTestId?: string;
  'data-testid': string;
  /** The fields. */
  children: ReactNode;
}

/**
 * A dialog holding one form (New … / Edit …): full screen on a phone, the failure that belongs to no field on top, the
 * fields, then Cancel and the submit button.
 */
export function FormModal({ title, opened = true, size, onClose, onSubmit, failure, failureTestId, submitLabel, submitting, submitTestId, 'data-testid': testId, children }: FormModalProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} fullScreen={phone} data-testid={testId}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">
          {failure && (
            <Callout color="red" icon={<IconAlertTriangle />} data-testid={failureTestId}>
              {failure}
            </Callout>
          )}
          {children}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting} data-testid={submitTestId}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
