import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBrandSlack, IconBrandTeams, IconEdit, IconKey, IconList, IconPlus, IconSend, IconTrash, IconWebhook } from '@tabler/icons-react';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import { DESTINATION_EVENT_LABELS, DESTINATION_MSG, DESTINATION_TYPE_LABELS, type Destination, type DestinationWithSecret } from '../../../../../contract/destinations.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
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
          <Button size="xs" variant="subtle" leftSection={<IconSend size={14} />} onClick={onTest} loading={testing}>
            Send test event
          </Button>
          <Button size="xs" variant="subtle" leftSection={<IconList size={14} />} onClick={onLog}>
            Delivery log
          </Button>
          <Button size="xs" variant="subtle" leftSection={<IconEdit size={14} />} onClick={onEdit}>
            Edit
          </Button>
          {d.type === 'webhook' && (
            <Button size="xs" variant="subtle" leftSection={<IconKey size={14} />} onClick={onRotate}>
              Rotate secret
            </Button>
          )}
          <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete} aria-label={`Delete ${d.name}`}>
            Delete
          </Button>
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
  const phone = !!useMediaQuery('(max-width: 36em)');

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={DESTINATION_MSG.loadFailed} onRetry={() => void list.refetch()} />;
  const failed = (err: unknown) => notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The action failed. Please try again.' });

  return (
    <Stack gap="md" data-testid="destinations-panel">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3">
            Destinations
          </Title>
          <Text size="sm" c="dimmed">
            Microsoft Teams and Slack channels and webhooks receive the organization&apos;s alert events, retried for a day when they fail.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ editing: null })}>
          New destination
        </Button>
      </Group>

      {list.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconWebhook size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="destinations-empty">
            {DESTINATION_MSG.none}
          </Text>
        </Paper>
      ) : (
        list.data.map((d) => (
          <DestinationCard
            key={d.id}
            d={d}
            testing={test.isPending && test.variables === d.id}
            onEdit={() => setForm({ editing: d })}
            onLog={() => setLogOf(d)}
            onDelete={() => setConfirm({ kind: 'delete', d })}
            onRotate={() => setConfirm({ kind: 'rotate', d })}
            onTest={() =>
              test.mutate(d.id, {
                onSuccess: (r) => notifications.show({ color: r.status === 'succeeded' ? 'green' : 'red', message: `Test event to ${d.name}: ${outcomeText(r)}` }),
                onError: failed,
              })
            }
          />
        ))
      )}

      {form && <DestinationFormModal key={form.editing?.id ?? 'new'} tenantId={tenantId} editing={form.editing} onClose={() => setForm(null)} />}
      {logOf && <DeliveryLogModal tenantId={tenantId} destination={logOf} onClose={() => setLogOf(null)} />}
      {revealed && <SecretShown created={revealed} onClose={() => setRevealed(null)} phone={phone} />}
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
            if (kind === 'rotate') rotate.mutate(d.id, { onSuccess: (r) => (done(), setRevealed(r)), onError: failed });
            else remove.mutate(d.id, { onSuccess: () => (done(), notifications.show({ color: 'green', message: `${d.name} is deleted` })), onError: failed });
          }}
        >
          <Text size="sm">{confirm.kind === 'rotate' ? DESTINATION_MSG.rotateConfirm : DESTINATION_MSG.deleteConfirm(confirm.d.name)}</Text>
        </ConfirmModal>
      )}
    </Stack>
  );
}
