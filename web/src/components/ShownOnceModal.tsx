import type { ReactNode } from 'react';
import { Alert as Callout, Button, Group, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { Copyable } from './Copyable.tsx';

export interface ShownOnceModalProps {
  title: string;
  /** The spec's warning that it will not be shown again. */
  notice: string;
  /** The secret (a key, a token, a URL) with its copy button, and what the copy button calls it. */
  value: string;
  valueLabel: string;
  /** What the closing button says the person has done ("I have copied the key"). */
  doneLabel: string;
  onClose: () => void;
  'data-testid': string;
  /** How it is used, under the secret. */
  children?: ReactNode;
}

/** A secret shown once, after it is made or renewed: the warning, the secret to copy, how to use it, and a closing button. */
export function ShownOnceModal({ title, notice, value, valueLabel, doneLabel, onClose, 'data-testid': testId, children }: ShownOnceModalProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened onClose={onClose} title={title} size="lg" fullScreen={phone} data-testid={testId}>
      <Stack gap="md">
        <Callout color="orange" icon={<IconKey />}>
          {notice}
        </Callout>
        <Copyable value={value} label={valueLabel} />
        {children}
        <Group justify="flex-end">
          <Button onClick={onClose}>{doneLabel}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
