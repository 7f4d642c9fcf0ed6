import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ApiError } from '../../../lib/api.ts';

/**
 * The spec's failure text for an action, with the server's reason underneath when it refused for a reason the
 * person can act on (a 4xx with its own message, e.g. "You cannot delete your own account").
 */
export function FailureAlert({ title, error }: { title: string; error: unknown }) {
  const reason = error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message !== title ? error.message : null;
  return (
    <Alert color="red" icon={<IconAlertTriangle />} title={title} role="alert" data-testid="failure-alert">
      {reason && <Text size="sm">{reason}</Text>}
    </Alert>
  );
}

/** Field errors the server attached to a 400/409, keyed by field name. */
export const serverFieldErrors = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fields : {});
