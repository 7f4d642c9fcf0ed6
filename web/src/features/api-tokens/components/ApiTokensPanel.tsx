import { useState } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { API_TOKEN_MSG, API_TOKEN_ROLE_LABELS, type ApiToken } from '../../../../../contract/api-tokens.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useApiTokens, useRevokeApiToken } from '../api/api-tokens.ts';
import { CreateApiTokenModal } from './CreateApiTokenModal.tsx';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" className="wrap-anywhere" data-testid={`api-token-${label.toLowerCase().replace(' ', '-')}`}>
        {value}
      </Text>
    </div>
  );
}

function TokenCard({ token: t, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid="api-token-card" data-name={t.name}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap={8} className="min-w-0">
          <Text fw={700} className="wrap-anywhere">
            {t.name}
          </Text>
          <Badge variant="light" color={t.role === 'write' ? 'orange' : 'blue'}>
            {API_TOKEN_ROLE_LABELS[t.role]}
          </Badge>
          {t.expiresAt && t.expiresAt <= new Date().toISOString() && (
            <Badge variant="light" color="gray" data-testid="api-token-expired">
              Expired
            </Badge>
          )}
        </Group>
        <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={onRevoke} aria-label={`Revoke ${t.name}`}>
          Revoke
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mt="sm" spacing="sm">
        <Fact label="Token" value={`${t.prefix}…`} />
        <Fact label="Created by" value={`${t.createdByName ?? 'Unknown'}, ${formatDateTime(t.createdAt)}`} />
        <Fact label="Last used" value={t.lastUsedAt ? formatDateTime(t.lastUsedAt) : 'Never'} />
        <Fact label="Expires" value={t.expiresAt ? formatDateTime(t.expiresAt) : 'Never'} />
      </SimpleGrid>
    </Paper>
  );
}

/** The tenant's API tokens (Tenant Admin's API tokens tab; owners and admins): list, create, revoke. */
export function ApiTokensPanel({ tenantId }: { tenantId: string }) {
  const list = useApiTokens(tenantId);
  const revoke = useRevokeApiToken(tenantId);
  const [creating, setCreating] = useState(false);
  const [confirm, setConfirm] = useState<ApiToken | null>(null);

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={API_TOKEN_MSG.loadFailed} onRetry={() => void list.refetch()} />;

  return (
    <Stack gap="md" data-testid="api-tokens-panel">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3">
            API tokens
          </Title>
          <Text size="sm" c="dimmed">
            Scripts and tools use the REST API with <code>Authorization: Bearer adk_…</code>; what they change shows the token&apos;s name.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New token
        </Button>
      </Group>

      {list.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconKey size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="api-tokens-empty">
            {API_TOKEN_MSG.none}
          </Text>
        </Paper>
      ) : (
        list.data.map((t) => <TokenCard key={t.id} token={t} onRevoke={() => setConfirm(t)} />)
      )}

      {creating && <CreateApiTokenModal tenantId={tenantId} onClose={() => setCreating(false)} />}
      <ConfirmModal
        opened={!!confirm}
        title="Revoke API token"
        confirmLabel="Revoke"
        color="red"
        centered={false}
        data-testid="confirm-modal"
        loading={revoke.isPending}
        failure={{ title: 'Failed to revoke the token', error: revoke.error }}
        onClose={() => {
          revoke.reset();
          setConfirm(null);
        }}
        onConfirm={() =>
          confirm &&
          revoke.mutate(confirm.id, {
            onSuccess: () => {
              notifications.show({ color: 'green', message: `${confirm.name} is revoked` });
              setConfirm(null);
            },
          })
        }
      >
        <Text size="sm">{confirm ? API_TOKEN_MSG.revokeConfirm(confirm.name) : ''}</Text>
      </ConfirmModal>
    </Stack>
  );
}
