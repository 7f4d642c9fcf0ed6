import { Badge, Button, Code, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconBan, IconEdit, IconMail, IconRefresh, IconRoute, IconSend } from '@tabler/icons-react';
import { DEFAULT_EMAIL_SETTINGS, type Integration } from '../../../../../contract/integrations.ts';
import { CardButton } from '../../../components/CardButton.tsx';
import { Copyable } from '../../../components/Copyable.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { FormatUrls } from './FormatUrls.tsx';

const customRules = (i: Integration) => JSON.stringify(i.emailSettings) !== JSON.stringify(DEFAULT_EMAIL_SETTINGS);

/**
 * One integration: its name and state, what it is bound to, when it was made and last used, its email address (with
 * copy and renew), the webhook URL of each vendor format, and its actions.
 */
export function IntegrationCard({
  integration,
  policyName,
  onEdit,
  onRotate,
  onRevoke,
  onTest,
  onRenewEmail,
  onRules,
  testing,
}: {
  integration: Integration;
  policyName: string | null;
  onEdit: () => void;
  onRotate: () => void;
  onRevoke: () => void;
  onTest: () => void;
  onRenewEmail: () => void;
  /** Opens the integration's routing rules (issue 28). */
  onRules: () => void;
  testing: boolean;
}) {
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
            <CardButton icon={IconSend} variant="light" onClick={onTest} loading={testing}>
              Send test alert
            </CardButton>
            <CardButton icon={IconEdit} variant="default" onClick={onEdit}>
              Edit
            </CardButton>
            <CardButton icon={IconRoute} variant="default" onClick={onRules}>
              Routing rules
            </CardButton>
            <CardButton icon={IconRefresh} variant="default" onClick={onRotate}>
              Rotate key
            </CardButton>
            <CardButton icon={IconBan} variant="light" color="red" onClick={onRevoke}>
              Revoke
            </CardButton>
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
      {active && integration.emailAddress && (
        <Group gap="xs" mt="xs" wrap="wrap" align="center" data-testid="integration-email">
          <Group gap={6} wrap="nowrap" className="min-w-0" style={{ flex: '1 1 18rem' }}>
            <IconMail size={16} aria-hidden style={{ flexShrink: 0, opacity: 0.7 }} />
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              Email
            </Text>
            <div className="min-w-0 grow">
              <Copyable value={integration.emailAddress} label="email address" />
            </div>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {customRules(integration) ? 'Own mail rules' : 'Default mail rules'}
            </Text>
            <Button size="compact-xs" variant="subtle" leftSection={<IconRefresh size={12} />} onClick={onRenewEmail}>
              Renew address
            </Button>
          </Group>
        </Group>
      )}
      {active && <FormatUrls eventsUrl={integration.endpoints.events} />}
    </Paper>
  );
}
