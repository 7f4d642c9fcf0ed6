import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FailureAlert } from './FailureAlert.tsx';

/** A delete confirmation: the question, Cancel and a red Delete; shows the spec's failure text when it fails. */
export function ConfirmDeleteModal(props: {
  opened: boolean;
  title: string;
  message: string;
  failure: string;
  error: unknown;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Stack>
        <Text>{props.message}</Text>
        {props.error ? <FailureAlert title={props.failure} error={props.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={props.onConfirm} loading={props.busy}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
