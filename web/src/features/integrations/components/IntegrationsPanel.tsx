import { lazy, Suspense, useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { EMAIL_MSG, INTEGRATION_MSG, type Integration, type IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { ApiError } from '../../../lib/api.ts';
import { LoadError, NoPermission } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useIntegrations } from '../api/list-integrations.ts';
import { useRotateIntegrationKey } from '../api/rotate-integration-key.ts';
import { useRevokeIntegration } from '../api/revoke-integration.ts';
import { useSendTestAlert } from '../api/send-test-alert.ts';
import { useRenewEmailAddress } from '../api/renew-email-address.ts';
import { IntegrationCard } from './IntegrationCard.tsx';
import { IntegrationFormModal } from './IntegrationFormModal.tsx';
import { KeyRevealModal } from './KeyRevealModal.tsx';
import { useEscalationPolicyChoices, type EscalationPolicyChoice } from '../../../lib/escalation-policy-choices.ts';

// The rules editor is loaded when first opened: none of it is in the Tenant Admin page's first load.
const RoutingRulesModal = lazy(async () => ({ default: (await import('./RoutingRulesModal.tsx')).RoutingRulesModal }));

/** Integration keys of a tenant (Tenant Admin shows this as its Integrations tab). */
/** Who is paged for the key's alerts, as its card says it: its own policy, else what applies without one. */
function policyNameOf(policyId: string | null, choices: EscalationPolicyChoice[] | undefined): string | null {
  if (!choices) return null;
  if (policyId) return choices.find((p) => p.id === policyId)?.name ?? 'Unknown policy';
  return 'client’s policy or the default';
}

export function IntegrationsPanel({ tenantId }: { tenantId: string }) {
  const list = useIntegrations(tenantId);
  const rotate = useRotateIntegrationKey(tenantId);
  const revoke = useRevokeIntegration(tenantId);
  const test = useSendTestAlert(tenantId);
  const renewEmail = useRenewEmailAddress(tenantId);
  const policies = useEscalationPolicyChoices(tenantId);
  const [form, setForm] = useState<{ editing: Integration | null } | null>(null);
  const [revealed, setRevealed] = useState<IntegrationWithKey | null>(null);
  const [rulesOf, setRulesOf] = useState<Integration | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'rotate' | 'revoke' | 'renew-email'; integration: Integration } | null>(null);

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
          <Title order={2} size="h3">
            Integrations
          </Title>
          <Text size="sm" c="dimmed">
            Keys your monitoring tools use to send alerts: PagerDuty Events v2, Prometheus Alertmanager or plain JSON; tools that only send mail use the integration’s email address.
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
            policyName={policyNameOf(i.escalationPolicyId, policies.data)}
            testing={test.isPending && test.variables === i.id}
            onEdit={() => setForm({ editing: i })}
            onRotate={() => setConfirm({ kind: 'rotate', integration: i })}
            onRevoke={() => setConfirm({ kind: 'revoke', integration: i })}
            onRenewEmail={() => setConfirm({ kind: 'renew-email', integration: i })}
            onRules={() => setRulesOf(i)}
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
      {rulesOf && (
        <Suspense fallback={null}>
          <RoutingRulesModal key={rulesOf.id} tenantId={tenantId} integration={rulesOf} onClose={() => setRulesOf(null)} />
        </Suspense>
      )}
      <ConfirmModal
        opened={confirm?.kind === 'rotate'}
        title="Rotate key"
        confirmLabel="Rotate key"
        color="orange"
        centered={false}
        data-testid="confirm-modal"
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
        <Text size="sm">A new key replaces the current key of {confirm?.integration.name}. The current key stops working at once: update the tools that use it.</Text>
      </ConfirmModal>
      <ConfirmModal
        opened={confirm?.kind === 'renew-email'}
        title="Renew email address"
        confirmLabel="Renew address"
        color="orange"
        centered={false}
        data-testid="confirm-modal"
        loading={renewEmail.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          confirm &&
          renewEmail.mutate(confirm.integration.id, {
            onSuccess: (r) => {
              setConfirm(null);
              notifications.show({ color: 'green', message: `New address for ${r.name}: ${r.emailAddress ?? ''}` });
            },
            onError: failed,
          })
        }
      >
        <Text size="sm">
          {confirm?.integration.name} gets a new email address. {EMAIL_MSG.addressRenewed}
        </Text>
      </ConfirmModal>
      <ConfirmModal
        opened={confirm?.kind === 'revoke'}
        title="Revoke integration"
        confirmLabel="Revoke"
        color="red"
        centered={false}
        data-testid="confirm-modal"
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
        <Text size="sm">Events sent with the key of {confirm?.integration.name} will be refused from now on. Its alerts stay. This cannot be undone.</Text>
      </ConfirmModal>
    </Stack>
  );
}

