import { useState } from 'react';
import { Alert, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { CLIENT_MSG, type Client } from '../../../../../contract/clients.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
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
    <ConfirmModal opened={!!client} title="Delete Client" confirmLabel="Delete" loading={remove.isPending} cancelDisabled={remove.isPending} onConfirm={confirm} onClose={close}>
      <Text>{MSG.clientDeleteConfirm}</Text>
      {client && (
        <Text fw={600} className="wrap-anywhere">
          {client.name}
        </Text>
      )}
      {failed && (
        <Alert color="red" icon={<IconAlertCircle />} data-testid="client-delete-error">
          {MSG.clientDeleteFailed}
        </Alert>
      )}
    </ConfirmModal>
  );
}
