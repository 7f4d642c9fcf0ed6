import { Alert, Text } from '@mantine/core';
import type { EscalationChannel } from '../../../../../contract/escalation.ts';
import type { Reachability } from '../../../../../contract/paging.ts';

const OFF: Record<EscalationChannel, string> = { email: 'email off', push: 'no browser subscribed to push', sms: 'SMS off or no phone number' };

/**
 * Under a level of the policy form: the people chosen whom none of the level's channels can reach now (their saved
 * preferences), and a note when SMS is chosen but the server has no SMS provider.
 */
export function PolicyReachWarning({ userIds, channels, reach }: { userIds: string[]; channels: EscalationChannel[]; reach: Reachability | undefined }) {
  if (!reach) return null;
  const unreachable = userIds
    .map((id) => reach.items.find((r) => r.userId === id))
    .filter((r): r is Reachability['items'][number] => !!r && !channels.some((c) => r[c]));
  const smsOff = channels.includes('sms') && !reach.smsEnabled;
  if (unreachable.length === 0 && !smsOff) return null;
  return (
    <Alert color="yellow" variant="light" p="xs" data-testid="policy-reach-warning">
      {unreachable.map((r) => (
        <Text size="sm" key={r.userId}>
          {r.displayName} cannot be reached by this level’s channels ({channels.length ? channels.map((c) => OFF[c]).join(', ') : 'no channel chosen'}).
        </Text>
      ))}
      {smsOff && <Text size="sm">SMS is not configured on this server: nobody is paged by SMS.</Text>}
    </Alert>
  );
}
