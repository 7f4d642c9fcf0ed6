import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { refusalReason } from '../lib/api.ts';

/**
 * The spec's failure text for an action, with the server's reason underneath when it refused for a reason the
 * person can act on (a 4xx with its own message, e.g. "You cannot delete your own account").
 */
export function FailureAlert({ title, error }: { title: string; error: unknown }) {
  const reason = refusalReason(error);
  return (
    <Alert color="red" icon={<IconAlertTriangle />} title={title} role="alert" data-testid="failure-alert">
      {reason && reason !== title && <Text size="sm">{reason}</Text>}
    </Alert>
  );
}
