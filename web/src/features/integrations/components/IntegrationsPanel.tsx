import { useState, type ReactNode } from 'react';
import { ActionIcon, Alert as Callout, Badge, Button, Code, CopyButton, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconBan, IconCheck, IconCopy, IconEdit, IconKey, IconPlugConnected, IconPlus, IconRefresh, IconSend } from '@tabler/icons-react';
import { INTEGRATION_MSG, type Integration, type IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { LoadError, NoPermission } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useIntegrations } from '../api/list-integrations.ts';
import { useCreateIntegration } from '../api/create-integration.ts';
import { useUpdateIntegration } from '../api/update-integration.ts';
import { useRotateIntegrationKey } from '../api/rotate-integration-key.ts';
import { useRevokeIntegration } from '../api/revoke-integration.ts';
import { useSendTestAlert } from '../api/send-test-alert.ts';
import { useClientOptions } from '../api/list-client-options.ts';

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Code style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid={`copy-${label}`}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`}>
            <ActionIcon variant="subtle" color={copied ? 'green' : 'gray'} onClick={copy} aria-label={`Copy ${label}`}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Shown once after creating or rotating: the key in full, and how each kind of tool uses it. */
function KeyRevealModal({ revealed, onClose }: { revealed: IntegrationWithKey | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  if (!revealed) return null;
  const { integration, key } = revealed;
  const e = integration.endpoints;
  return (
    <Modal opened onClose={onClose} title={`Integration key: ${integration.name}`} size="lg" fullScreen={phone} data-testid="key-modal">
      <Stack gap="md">
        <Callout color="orange" icon={<IconKey />}>
          {INTEGRATION_MSG.keyShownOnce}
        </Callout>
        <Copyable value={key} label="key" />
        <div>
          <Text fw={600} size="sm">
            PagerDuty-compatible tools (Events API v2)
          </Text>
          <Text size="sm" c="dimmed">
            Point the events URL here and use the key as the routing key / integration key.
          </Text>
          <Copyable value={e.pagerduty} label="PagerDuty URL" />
        </div>
        <div>
          <Text fw={600} size="sm">
            Prometheus Alertmanager (webhook)
          </Text>
          <Text size="sm" c="dimmed">
            Send the key as <Code>Authorization: Bearer …</Code>, or append it to the URL for tools that cannot set headers.
          </Text>
          <Copyable value={e.alertmanager} label="Alertmanager URL" />
        </div>
        <div>
          <Text fw={600} size="sm">
            Anything else (generic JSON)
          </Text>
          <Copyable value={`curl -X POST ${e.events} -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"title":"Disk full on db-1","priority":"high","source":"db-1"}'`} label="curl example" />
        </div>
        <Group justify="flex-end">
          <Button onClick={onClose}>I have copied the key</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function IntegrationFormModal({ tenantId, editing, opened, onClose, onCreated }: { tenantId: string; editing: Integration | null; opened: boolean; onClose: () => void; onCreated: (r: IntegrationWithKey) => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const clients = useClientOptions(tenantId, opened);
  const create = useCreateIntegration(tenantId);
  const update = useUpdateIntegration(tenantId);
  const [name, setName] = useState(editing?.name ?? '');
  const [clientId, setClientId] = useState<string | null>(editing?.clientId ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  const submit = () => {
    setFailure(null);
    if (!name.trim()) return setErrors({ name: INTEGRATION_MSG.nameRequired });
    const onError = (err: unknown) => {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else setFailure(err instanceof Error ? err.message : String(err));
    };
    if (editing) {
      update.mutate(
        { id: editing.id, name: name.trim(), clientId },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: 'Integration saved' });
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate({ name: name.trim(), clientId }, { onSuccess: (r) => onCreated(r), onError });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? 'Edit integration' : 'New integration'} fullScreen={phone} data-testid="integration-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {failure && (
            <Callout color="red" icon={<IconAlertTriangle />}>
              {failure}
            </Callout>
          )}
          <TextInput
            label="Name"
            placeholder="Prometheus production"
            description="Which tool sends through this key, so you can tell keys apart."
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: '' }));
            }}
            error={errors.name || undefined}
            data-autofocus
            withAsterisk
          />
          <Select
            label="Client"
            description="Alerts through this key belong to this client (optional)."
            placeholder={clients.isPending ? 'Loading...' : 'No client'}
            data={clients.data ?? []}
            value={clientId}
            onChange={(v) => {
              setClientId(v);
              setErrors((x) => ({ ...x, clientId: '' }));
            }}
            error={errors.clientId || (clients.isError ? 'Clients could not be loaded' : undefined)}
            clearable
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {editing ? 'Save Changes' : 'Create integration'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ConfirmModal({ title, children, confirm, color, opened, loading, onConfirm, onClose }: { title: string; children: ReactNode; confirm: string; color: string; opened: boolean; loading: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} data-testid="confirm-modal">
      <Stack>
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={color} loading={loading} onClick={onConfirm}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function IntegrationCard({ integration, onEdit, onRotate, onRevoke, onTest, testing }: { integration: Integration; onEdit: () => void; onRotate: () => void; onRevoke: () => void; onTest: () => void; testing: boolean }) {
  const active = integration.status === 'active';
  return (
    <Paper withBorder p="md" radius="md" data-testid="integration-card" style={{ opacity: active ? 1 : 0.7 }}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap={8} style={{ minWidth: 0 }}>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
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
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="xs" verticalSpacing={4} mt="xs">
        <Text size="sm" c="dimmed">
          Key <Code>{integration.keyPrefix}…</Code>
        </Text>
        <Text size="sm" c="dimmed">
          Client: {integration.clientName ?? 'none'}
        </Text>
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

/** Integration keys of a tenant (Tenant Admin shows this as its Integrations tab). */
export function IntegrationsPanel({ tenantId }: { tenantId: string }) {
  const list = useIntegrations(tenantId);
  const rotate = useRotateIntegrationKey(tenantId);
  const revoke = useRevokeIntegration(tenantId);
  const test = useSendTestAlert(tenantId);
  const [form, setForm] = useState<{ editing: Integration | null } | null>(null);
  const [revealed, setRevealed] = useState<IntegrationWithKey | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'rotate' | 'revoke'; integration: Integration } | null>(null);

  if (list.isPending) return <Loading />;
  if (list.isError) {
    if (list.error instanceof ApiError && list.error.status === 403) return <NoPermission />;
    return <LoadError message={INTEGRATION_MSG.loadFailed} onRetry={() => void list.refetch()} />;
  }
  const failed = (err: unknown) => notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The action failed. Please try again.' });

  return (
    <Stack gap="md" data-testid="integrations-panel">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={3}>Integrations</Title>
          <Text size="sm" c="dimmed">
            Keys your monitoring tools use to send alerts: PagerDuty Events v2, Prometheus Alertmanager or plain JSON.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ editing: null })}>
          New integration
        </Button>
      </Group>

      {list.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconPlugConnected size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="integrations-empty">
            {INTEGRATION_MSG.noIntegrations}
          </Text>
        </Paper>
      ) : (
        list.data.map((i) => (
          <IntegrationCard
            key={i.id}
            integration={i}
            testing={test.isPending && test.variables === i.id}
            onEdit={() => setForm({ editing: i })}
            onRotate={() => setConfirm({ kind: 'rotate', integration: i })}
            onRevoke={() => setConfirm({ kind: 'revoke', integration: i })}
            onTest={() =>
              test.mutate(i.id, {
                onSuccess: () => notifications.show({ color: 'green', message: `Test alert sent through ${i.name}: it is on the dashboard now.` }),
                onError: failed,
              })
            }
          />
        ))
      )}

      {form && (
        <IntegrationFormModal
          key={form.editing?.id ?? 'new'}
          tenantId={tenantId}
          editing={form.editing}
          opened
          onClose={() => setForm(null)}
          onCreated={(r) => {
            setForm(null);
            setRevealed(r);
          }}
        />
      )}
      <KeyRevealModal revealed={revealed} onClose={() => setRevealed(null)} />
      <ConfirmModal
        opened={confirm?.kind === 'rotate'}
        title="Rotate key"
        confirm="Rotate key"
        color="orange"
        loading={rotate.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          confirm &&
          rotate.mutate(confirm.integration.id, {
            onSuccess: (r) => {
              setConfirm(null);
              setRevealed(r);
            },
            onError: failed,
          })
        }
      >
        A new key replaces the current key of {confirm?.integration.name}. The current key stops working at once: update the tools that use it.
      </ConfirmModal>
      <ConfirmModal
        opened={confirm?.kind === 'revoke'}
        title="Revoke integration"
        confirm="Revoke"
        color="red"
        loading={revoke.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          confirm &&
          revoke.mutate(confirm.integration.id, {
            onSuccess: () => {
              setConfirm(null);
              notifications.show({ color: 'green', message: `${confirm.integration.name} is revoked` });
            },
            onError: failed,
          })
        }
      >
        Events sent with the key of {confirm?.integration.name} will be refused from now on. Its alerts stay. This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
