import { useState } from 'react';
import { Badge, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { API_TOKEN_MSG, API_TOKEN_ROLE_LABELS, type ApiToken } from '../../../../../contract/api-tokens.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { CardButton } from '../../../components/CardButton.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
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
        <CardButton icon={IconTrash} color="red" onClick={onRevoke} aria-label={`Revoke ${t.name}`}>
          Revoke
        </CardButton>
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

const INTRO = (
  <>
    Scripts and tools use the REST API with <code>Authorization: Bearer adk_…</code>; what they change shows the token&apos;s name.
  </>
);

/** The tenant's API tokens (Tenant Admin's API tokens tab; owners and admins): list, create, revoke. */
export function ApiTokensPanel({ tenantId }: { tenantId: string }) {
  const list = useApiTokens(tenantId);
  const revoke = useRevokeApiToken(tenantId);
  const [creating, setCreating] = useState(false);
  const [confirm, setConfirm] = useState<ApiToken | null>(null);

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={API_TOKEN_MSG.loadFailed} onRetry={() => void list.refetch()} />;

  return (
    <ListPanel
      data-testid="api-tokens-panel"
      header={{ title: 'API tokens', description: INTRO, action: <AddButton onClick={() => setCreating(true)}>New token</AddButton> }}
      items={list.data}
      empty={{ icon: IconKey, text: API_TOKEN_MSG.none, testId: 'api-tokens-empty' }}
      card={(t) => <TokenCard token={t} onRevoke={() => setConfirm(t)} />}
    >
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
    </ListPanel>
  );
}
