import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ApiError } from '../../../lib/api.ts';

/** The server's reason when it refused for something the person can act on (a 4xx with its own message). */
export const refusalReason = (error: unknown): string | null =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : null;

/** The spec's failure text for an action, with the server's reason underneath when there is one. */
export function FailureAlert({ title, error }: { title: string; error: unknown }) {
  const reason = refusalReason(error);
  return (
    <Alert color="red" icon={<IconAlertTriangle />} title={title} role="alert" data-testid="failure-alert">
      {reason && reason !== title && <Text size="sm">{reason}</Text>}
    </Alert>
  );
}
