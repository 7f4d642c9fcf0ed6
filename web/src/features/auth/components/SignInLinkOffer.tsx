import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconMail, IconMailCheck } from '@tabler/icons-react';
import { SIGN_IN_LINK_MSG } from '../../../../../contract/messages.ts';
import { refusalReason } from '../../../lib/api.ts';
import { useRequestSignInLink } from '../api/request-sign-in-link.ts';

/**
 * Shown when sign-in was refused because the account is throttled (failed guesses from many addresses): the server's
 * message and a one-time link by email for that address, the way in those guesses cannot block.
 */
export function SignInLinkOffer({ email, message }: { email: string; message: string }) {
  const request = useRequestSignInLink();
  if (request.isSuccess)
    return (
      <Alert color="green" icon={<IconMailCheck />} role="status" data-testid="sign-in-link-sent">
        <Text size="sm" className="wrap-anywhere">
          {request.data.message}
        </Text>
      </Alert>
    );
  return (
    <Alert color="orange" role="alert" data-testid="signin-throttled">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        {request.isError && (
          <Text size="sm" c="red" role="alert">
            {refusalReason(request.error) ?? SIGN_IN_LINK_MSG.requestFailed}
          </Text>
        )}
        <Button size="sm" leftSection={<IconMail size={16} />} loading={request.isPending} onClick={() => request.mutate(email)}>
          Email me a sign-in link
        </Button>
      </Stack>
    </Alert>
  );
}
