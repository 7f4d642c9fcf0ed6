import type { ReactNode } from 'react';
import { Anchor, Button, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconKey, IconPlugConnected, IconSpeakerphone, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TenantAbilities } from '../../../../../contract/auth.ts';
import { ESCALATION_MSG } from '../../../../../contract/escalation.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { ApiError, refusalReason } from '../../../lib/api.ts';
import { alertmanagerReceiver, curlExample } from '../../../lib/ingest-examples.ts';
import { useCreateDefaultPolicy, useDefaultPolicy } from '../api/default-escalation-policy.ts';

/**
 * A new tenant's dashboard before its first alert: how to send one (an integration key, then curl or Alertmanager),
 * who it pages (the default escalation policy, in one click), and the rest of a first day (the team, the clients). It
 * disappears once the first alert has arrived. The policy step comes before the first alert on purpose: an alert that
 * arrives with no policy pages nobody.
 */
export function GettingStarted({ tenantId, abilities }: { tenantId: string; abilities: TenantAbilities }) {
  const origin = window.location.origin;
  const curl = curlExample(`${origin}/api/ingest/events`, '<your key>');
  const alertmanager = alertmanagerReceiver(`${origin}/api/ingest/alertmanager`, '<your key>');
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" data-testid="getting-started">
      <Stack gap="md">
        <div>
          <Title order={3}>Get your first alert in</Title>
          <Text c="dimmed" size="sm">
            No alert has arrived yet. Four steps and your monitoring tools page the right people.
          </Text>
        </div>
        <Stack gap="lg">
          <Step icon={<IconKey size={16} />}>
            <Text fw={600}>Create an integration key</Text>
            {abilities.manageIntegrations ? (
              <Anchor component={Link} to="/app/tenant-admin?tab=integrations" size="sm">
                Open Integrations
              </Anchor>
            ) : (
              <Text size="sm" c="dimmed">
                Ask an owner or admin of your organization for one.
              </Text>
            )}
          </Step>
          <DefaultPolicyStep tenantId={tenantId} canManage={abilities.manageEscalation} />
          <Step icon={<IconPlugConnected size={16} />}>
            <Stack gap={6}>
              <Text fw={600}>Send an alert</Text>
              <Text size="sm" c="dimmed">
                From a shell, with your key in place of &lt;your key&gt;:
              </Text>
              <Copyable value={curl} label="curl command" />
              <Text size="sm" c="dimmed">
                Or from Prometheus Alertmanager (alertmanager.yml):
              </Text>
              <Copyable value={alertmanager} label="Alertmanager receiver" block />
              <Text size="sm" c="dimmed">
                PagerDuty-compatible tools use the events URL shown with the key.
              </Text>
            </Stack>
          </Step>
          <Step icon={<IconUsers size={16} />}>
            <Text fw={600}>Bring your team and your clients</Text>
            <Group gap="xs" mt={4}>
              {abilities.manageMembers && (
                <Button component={Link} to="/app/tenant-admin" variant="light" size="xs" leftSection={<IconUserPlus size={14} />}>
                  Invite the team
                </Button>
              )}
              <Button component={Link} to="/app/clients" variant="light" size="xs">
                Add a client
              </Button>
            </Group>
          </Step>
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * "Create the default escalation policy": done once the tenant has a default policy (whoever made it, here or on the
 * Escalation page); otherwise one click for owners and admins (the server puts the owner on level 1), whom to ask for
 * the others.
 */
function DefaultPolicyStep({ tenantId, canManage }: { tenantId: string; canManage: boolean }) {
  const current = useDefaultPolicy(tenantId);
  const create = useCreateDefaultPolicy(tenantId);
  const policy = current.data?.policy;
  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: () => notifications.show({ color: 'green', message: ESCALATION_MSG.oneClickCreated }),
      // Made meanwhile (another tab, another admin): the step reads it and shows it done.
      onError: (e) => {
        if (e instanceof ApiError && e.status === 409) void current.refetch();
      },
    });
  const failed = create.isError && !(create.error instanceof ApiError && create.error.status === 409);
  return (
    <Step icon={policy ? <IconCheck size={16} aria-hidden /> : <IconSpeakerphone size={16} aria-hidden />} done={!!policy} testId="getting-started-policy">
      <Stack gap={6}>
        <Text fw={600}>Create the default escalation policy</Text>
        {current.isPending ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              Checking for a default policy…
            </Text>
          </Group>
        ) : current.isError ? (
          <Group gap="xs">
            <Text size="sm" c="red">
              {ESCALATION_MSG.defaultLoadFailed}
            </Text>
            <Button size="xs" variant="default" onClick={() => void current.refetch()} loading={current.isFetching}>
              Retry
            </Button>
          </Group>
        ) : policy ? (
          <Text size="sm" c="dimmed" data-testid="default-policy-done">
            Done: “{policy.name}” pages new alerts.{' '}
            {canManage && (
              <Anchor component={Link} to="/app/escalation-policies" size="sm">
                Review it
              </Anchor>
            )}
          </Text>
        ) : canManage ? (
          <>
            <Text size="sm" c="dimmed">
              Until a policy applies, alerts page nobody. One click makes a default policy that pages the organization’s owner by email and push; change it any time.
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={onCreate} loading={create.isPending} data-testid="create-default-policy">
                Create default policy
              </Button>
            </Group>
            {failed && (
              <Text size="sm" c="red" role="alert">
                {refusalReason(create.error) ?? ESCALATION_MSG.oneClickFailed}
              </Text>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Until a policy applies, alerts page nobody. Ask an owner or admin of your organization to create one.
          </Text>
        )}
      </Stack>
    </Step>
  );
}

function Step({ icon, children, done = false, testId }: { icon: ReactNode; children: ReactNode; done?: boolean; testId?: string }) {
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm" data-testid={testId} data-done={done || undefined}>
      <ThemeIcon variant="light" radius="xl" color={done ? 'teal' : undefined}>
        {icon}
      </ThemeIcon>
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </Group>
  );
}
