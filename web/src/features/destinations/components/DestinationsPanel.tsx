import { useState } from 'react';
import { Badge, Group, Paper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBrandSlack, IconBrandTeams, IconEdit, IconKey, IconList, IconSend, IconTrash, IconWebhook } from '@tabler/icons-react';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import { DESTINATION_EVENT_LABELS, DESTINATION_MSG, DESTINATION_TYPE_LABELS, type Destination, type DestinationWithSecret } from '../../../../../contract/destinations.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { CardButton } from '../../../components/CardButton.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { notifyActionFailed } from '../../../components/notify-action-failed.ts';
import { useDeleteDestination, useDestinations, useRotateSecret, useSendTestEvent } from '../api/destinations.ts';
import { DeliveryLogModal, outcomeText } from './DeliveryLogModal.tsx';
import { DestinationFormModal, SecretShown } from './DestinationFormModal.tsx';

function filterText(d: Destination): string {
  const parts = [];
  if (d.filter.priorities?.length) parts.push(d.filter.priorities.map((p) => PRIORITY_LABELS[p]).join(', '));
  if (d.filter.clientIds?.length) parts.push(`${d.filter.clientIds.length} client${d.filter.clientIds.length === 1 ? '' : 's'}`);
  return parts.length ? `Only ${parts.join('; ')}` : 'Every alert of the organization';
}

interface CardActions {
  onEdit: () => void;
  onTest: () => void;
  onLog: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

const TYPE_ICON = { teams: IconBrandTeams, slack: IconBrandSlack, webhook: IconWebhook } as const;

function DestinationCard({ d, onEdit, onTest, onLog, onRotate, onDelete, testing }: CardActions & { d: Destination; testing: boolean }) {
  const Icon = TYPE_ICON[d.type];
  return (
    <Paper withBorder p="md" radius="md" data-testid="destination-card" data-name={d.name} data-type={d.type} data-enabled={String(d.enabled)}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap={8} className="min-w-0">
          <Icon size={20} stroke={1.5} aria-hidden />
          <Text fw={700} className="wrap-anywhere">
            {d.name}
          </Text>
          <Badge variant="outline" color="gray">
            {DESTINATION_TYPE_LABELS[d.type]}
          </Badge>
          <Badge variant="light" color={d.enabled ? 'green' : 'gray'}>
            {d.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        </Group>
        <Group gap={4}>
          <CardButton icon={IconSend} onClick={onTest} loading={testing}>
            Send test event
          </CardButton>
          <CardButton icon={IconList} onClick={onLog}>
            Delivery log
          </CardButton>
          <CardButton icon={IconEdit} onClick={onEdit}>
            Edit
          </CardButton>
          {d.type === 'webhook' && (
            <CardButton icon={IconKey} onClick={onRotate}>
              Rotate secret
            </CardButton>
          )}
          <CardButton icon={IconTrash} color="red" onClick={onDelete} aria-label={`Delete ${d.name}`}>
            Delete
          </CardButton>
        </Group>
      </Group>
      <Text size="sm" ff="monospace" className="wrap-anywhere" mt={4} lineClamp={2}>
        {d.type === 'slack' ? d.channel : d.url}
      </Text>
      <Text size="sm" c="dimmed" mt={4}>
        {d.events.map((e) => DESTINATION_EVENT_LABELS[e]).join(', ')} · {filterText(d)}
      </Text>
      {d.disabledReason && (
        <Text size="sm" c="red" mt={4}>
          {d.disabledReason}
        </Text>
      )}
    </Paper>
  );
}

const CONFIRMS = {
  rotate: { title: 'Rotate signing secret', confirmLabel: 'Rotate secret', color: 'orange' },
  delete: { title: 'Delete destination', confirmLabel: 'Delete', color: 'red' },
} as const;

const INTRO = "Microsoft Teams and Slack channels and webhooks receive the organization's alert events, retried for a day when they fail.";

/** The tenant's destinations (Tenant Admin's Destinations tab; owners and admins): Teams and Slack channels, webhooks. */
export function DestinationsPanel({ tenantId }: { tenantId: string }) {
  const list = useDestinations(tenantId);
  const test = useSendTestEvent(tenantId);
  const remove = useDeleteDestination(tenantId);
  const rotate = useRotateSecret(tenantId);
  const [form, setForm] = useState<{ editing: Destination | null } | null>(null);
  const [logOf, setLogOf] = useState<Destination | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'delete' | 'rotate'; d: Destination } | null>(null);
  const [revealed, setRevealed] = useState<DestinationWithSecret | null>(null);

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={DESTINATION_MSG.loadFailed} onRetry={() => void list.refetch()} />;

  return (
    <ListPanel
      data-testid="destinations-panel"
      header={{ title: 'Destinations', description: INTRO, action: <AddButton onClick={() => setForm({ editing: null })}>New destination</AddButton> }}
      items={list.data}
      empty={{ icon: IconWebhook, text: DESTINATION_MSG.none, testId: 'destinations-empty' }}
      card={(d) => (
        <DestinationCard
          d={d}
          testing={test.isPending && test.variables === d.id}
          onEdit={() => setForm({ editing: d })}
          onLog={() => setLogOf(d)}
          onDelete={() => setConfirm({ kind: 'delete', d })}
          onRotate={() => setConfirm({ kind: 'rotate', d })}
          onTest={() =>
            test.mutate(d.id, {
              onSuccess: (r) => notifications.show({ color: r.status === 'succeeded' ? 'green' : 'red', message: `Test event to ${d.name}: ${outcomeText(r)}` }),
              onError: notifyActionFailed,
            })
          }
        />
      )}
    >
      {form && <DestinationFormModal key={form.editing?.id ?? 'new'} tenantId={tenantId} editing={form.editing} onClose={() => setForm(null)} />}
      {logOf && <DeliveryLogModal tenantId={tenantId} destination={logOf} onClose={() => setLogOf(null)} />}
      {revealed && <SecretShown created={revealed} onClose={() => setRevealed(null)} />}
      {confirm && (
        <ConfirmModal
          opened
          centered={false}
          data-testid="confirm-modal"
          {...CONFIRMS[confirm.kind]}
          loading={rotate.isPending || remove.isPending}
          onClose={() => setConfirm(null)}
          onConfirm={() => {
            const { kind, d } = confirm;
            const done = () => setConfirm(null);
            if (kind === 'rotate') rotate.mutate(d.id, { onSuccess: (r) => (done(), setRevealed(r)), onError: notifyActionFailed });
            else remove.mutate(d.id, { onSuccess: () => (done(), notifications.show({ color: 'green', message: `${d.name} is deleted` })), onError: notifyActionFailed });
          }}
        >
          <Text size="sm">{confirm.kind === 'rotate' ? DESTINATION_MSG.rotateConfirm : DESTINATION_MSG.deleteConfirm(confirm.d.name)}</Text>
        </ConfirmModal>
      )}
    </ListPanel>
  );
}
