import { Badge, Button, Code, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconBan, IconEdit, IconRefresh, IconSend } from '@tabler/icons-react';
import type { Integration } from '../../../../../contract/integrations.ts';
import { formatDateTime } from '../../../lib/dates.ts';

/** One integration key: its name and state, what it is bound to, when it was made and last used, and its actions. */
export function IntegrationCard({ integration, policyName, onEdit, onRotate, onRevoke, onTest, testing }: { integration: Integration; policyName: string | null; onEdit: () => void; onRotate: () => void; onRevoke: () => void; onTest: () => void; testing: boolean }) {
  const active = integration.status === 'active';
  return (
    <Paper withBorder p="md" radius="md" data-testid="integration-card" style={{ opacity: active ? 1 : 0.7 }}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap={8} className="min-w-0">
          <Text fw={700} className="wrap-anywhere">
            {integration.name}
          </Text>
          <Badge color={active ? 'green' : 'gray'} variant="light">
            {active ? 'Active' : 'Revoked'}
          </Badge>
        </Group>
        {active && (
          <Group gap="xs" wrap="wrap">
            <Button size="xs" variant="light" leftSection={<IconSend size={14} />} onClick={onTest} loading={testing}>
              Send test alert
            </Button>
            <Button size="xs" variant="default" leftSection={<IconEdit size={14} />} onClick={onEdit}>
              Edit
            </Button>
            <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={onRotate}>
              Rotate key
            </Button>
            <Button size="xs" variant="light" color="red" leftSection={<IconBan size={14} />} onClick={onRevoke}>
              Revoke
            </Button>
          </Group>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: policyName ? 5 : 4 }} spacing="xs" verticalSpacing={4} mt="xs">
        <Text size="sm" c="dimmed">
          Key <Code>{integration.keyPrefix}…</Code>
        </Text>
        <Text size="sm" c="dimmed">
          Client: {integration.clientName ?? 'none'}
        </Text>
        {policyName && (
          <Text size="sm" c="dimmed" data-testid="integration-policy">
            Escalation: {policyName}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          Created {formatDateTime(integration.createdAt)}
          {integration.createdByName ? ` by ${integration.createdByName}` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {active ? `Last used: ${integration.lastUsedAt ? formatDateTime(integration.lastUsedAt) : 'never'}` : `Revoked ${formatDateTime(integration.revokedAt)}`}
        </Text>
      </SimpleGrid>
    </Paper>
  );
}
