import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailOpened } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { PendingInvitation } from '../../../../../contract/auth.ts';
import { MEMBERS_MSG } from '../../../../../contract/members-text.ts';
import { useCurrentTenant, useSignedInMe } from '../../../lib/session.tsx';
import { ApiError } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useAcceptPendingInvitation } from '../api/accept-pending-invitation.ts';
import { useDeclinePendingInvitation } from '../api/decline-pending-invitation.ts';

/** Invitations waiting for the signed-in user's email, at the top of every /app page until answered. */
export function PendingInvitationsBanner() {
  const me = useSignedInMe();
  if (!me.pendingInvitations?.length) return null;
  return (
    <Stack gap="sm" mb="lg">
      {me.pendingInvitations.map((inv) => (
        <InvitationAlert key={inv.id} invitation={inv} />
      ))}
    </Stack>
  );
}

function InvitationAlert({ invitation }: { invitation: PendingInvitation }) {
  const me = useSignedInMe();
  const accept = useAcceptPendingInvitation();
  const decline = useDeclinePendingInvitation();
  const { setTenantId } = useCurrentTenant();
  const qc = useQueryClient();
  const role = invitation.role === 'admin' ? 'Admin' : 'User';

  const onAccept = async () => {
    try {
      const joined = await accept.mutateAsync(invitation.id);
      // The tenant list must include the new tenant before it can become the current one.
      await qc.refetchQueries({ queryKey: queryKeys.me });
      setTenantId(joined.tenantId);
      notifications.show({ color: 'green', message: `You joined ${joined.tenantName}.` });
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof ApiError && e.status < 500 ? e.message : 'The invitation could not be accepted. Please try again.' });
    }
  };
  const onDecline = async () => {
    try {
      await decline.mutateAsync(invitation.id);
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof ApiError && e.status < 500 ? e.message : 'The invitation could not be declined. Please try again.' });
    }
  };

  return (
    <Alert color="orange" variant="light" icon={<IconMailOpened />} title={`Invitation to ${invitation.tenantName}`} data-testid="pending-invitation">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {invitation.invitedByName ?? 'An administrator'} invited you to join {invitation.tenantName} as {role}.
        </Text>
        {!me.user.emailVerified ? (
          <Text size="sm" fw={600} data-testid="invitation-verify-hint">
            {MEMBERS_MSG.verifyByLink}
          </Text>
        ) : (
        <Group gap="xs">
          <Button size="xs" onClick={onAccept} loading={accept.isPending}>
            Accept
          </Button>
          <Button size="xs" variant="default" onClick={onDecline} loading={decline.isPending}>
            Decline
          </Button>
        </Group>
        )}
      </Group>
    </Alert>
  );
}
