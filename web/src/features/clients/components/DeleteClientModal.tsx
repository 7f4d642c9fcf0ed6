import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { CLIENT_MSG, type Client } from '../../../../../contract/clients.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { useDeleteClient } from '../api/delete-client.ts';

/** The delete confirmation of spec section 5. */
export function DeleteClientModal({ tenantId, client, onClose }: { tenantId: string; client: Client | null; onClose: () => void }) {
  const remove = useDeleteClient(tenantId);
  const [failed, setFailed] = useState(false);
  const close = () => {
    setFailed(false);
    onClose();
  };
  const confirm = async () => {
    if (!client) return;
    setFailed(false);
    try {
      await remove.mutateAsync(client.id);
      notifications.show({ color: 'green', message: CLIENT_MSG.deleted });
      close();
    } catch {
      setFailed(true);
    }
  };
  return (
    <Modal opened={!!client} onClose={close} title="Delete Client" centered>
      <Stack>
        <Text>{MSG.clientDeleteConfirm}</Text>
        {client && (
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {client.name}
          </Text>
        )}
        {failed && (
          <Alert color="red" icon={<IconAlertCircle />} data-testid="client-delete-error">
            {MSG.clientDeleteFailed}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
