import { lazy, Suspense, useState } from 'react';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected } from '@tabler/icons-react';
import { EMAIL_MSG, INTEGRATION_MSG, type Integration, type IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { ApiError } from '../../../lib/api.ts';
import { LoadError, NoPermission } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { ConfirmCardAction } from '../../../components/ConfirmCardAction.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { notifyActionFailed } from '../../../components/notify-action-failed.ts';
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

const INTRO =
  'Keys your monitoring tools use to send alerts: PagerDuty Events v2, Prometheus Alertmanager or plain JSON; tools that only send mail use the integration’s email address.';

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

  const close = () => setConfirm(null);
  const renewed = (r: Integration) => notifications.show({ color: 'green', message: `New address for ${r.name}: ${r.emailAddress ?? ''}` });
  const revoked = (_: unknown, i: Integration) => notifications.show({ color: 'green', message: `${i.name} is revoked` });

  if (list.isPending) return <Loading />;
  if (list.isError) {
    if (list.error instanceof ApiError && list.error.status === 403) return <NoPermission />;
    return <LoadError message={INTEGRATION_MSG.loadFailed} onRetry={() => void list.refetch()} />;
  }

  return (
    <ListPanel
      data-testid="integrations-panel"
      header={{ title: 'Integrations', description: INTRO, action: <AddButton onClick={() => setForm({ editing: null })}>New integration</AddButton> }}
      items={list.data}
      empty={{ icon: IconPlugConnected, text: INTEGRATION_MSG.noIntegrations, testId: 'integrations-empty' }}
      card={(i) => (
        <IntegrationCard
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
              onError: notifyActionFailed,
            })
          }
        />
      )}
    >
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
      <ConfirmCardAction target={confirm?.kind === 'rotate' ? confirm.integration : null} action={rotate} title="Rotate key" confirmLabel="Rotate key" color="orange" onClose={close} onDone={setRevealed}>
        <Text size="sm">A new key replaces the current key of {confirm?.integration.name}. The current key stops working at once: update the tools that use it.</Text>
      </ConfirmCardAction>
      <ConfirmCardAction target={confirm?.kind === 'renew-email' ? confirm.integration : null} action={renewEmail} title="Renew email address" confirmLabel="Renew address" color="orange" onClose={close} onDone={renewed}>
        <Text size="sm">
          {confirm?.integration.name} gets a new email address. {EMAIL_MSG.addressRenewed}
        </Text>
      </ConfirmCardAction>
      <ConfirmCardAction target={confirm?.kind === 'revoke' ? confirm.integration : null} action={revoke} title="Revoke integration" confirmLabel="Revoke" color="red" onClose={close} onDone={revoked}>
        <Text size="sm">Events sent with the key of {confirm?.integration.name} will be refused from now on. Its alerts stay. This cannot be undone.</Text>
      </ConfirmCardAction>
    </ListPanel>
  );
}

