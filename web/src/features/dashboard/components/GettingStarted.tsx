import type { ReactNode } from 'react';
import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconKey, IconPlugConnected, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TenantAbilities } from '../../../../../contract/auth.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { alertmanagerReceiver, curlExample } from '../../../lib/ingest-examples.ts';

/**
 * A new tenant's dashboard before its first alert: how to send one (an integration key, then curl or Alertmanager),
 * and the rest of a first day (the team, the clients). It disappears once the first alert has arrived.
 */
export function GettingStarted({ abilities }: { abilities: TenantAbilities }) {
  const origin = window.location.origin;
  const curl = curlExample(`${origin}/api/ingest/events`, '<your key>');
  const alertmanager = alertmanagerReceiver(`${origin}/api/ingest/alertmanager`, '<your key>');
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" data-testid="getting-started">
      <Stack gap="md">
        <div>
          <Title order={3}>Get your first alert in</Title>
          <Text c="dimmed" size="sm">
            No alert has arrived yet. Three steps and your monitoring tools page the right people.
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

function Step({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm">
      <ThemeIcon variant="light" radius="xl">
        {icon}
      </ThemeIcon>
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </Group>
  );
}
