import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHeartbeat, IconPlus } from '@tabler/icons-react';
import { HEARTBEAT_MSG, type Heartbeat, type HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { useDeleteHeartbeat } from '../api/delete-heartbeat.ts';
import { useHeartbeats } from '../api/list-heartbeats.ts';
import { useSetHeartbeatPaused } from '../api/pause-heartbeat.ts';
import { useRenewPingUrl } from '../api/renew-ping-url.ts';
import { HeartbeatCard } from './HeartbeatCard.tsx';
import { HeartbeatFormModal } from './HeartbeatFormModal.tsx';
import { PingUrlModal } from './PingUrlModal.tsx';

/**
 * A tenant's heartbeat monitors (Tenant Admin shows this as its Heartbeats tab). Every member may read them; the
 * actions are for those the server lets manage integrations (owners and admins).
 */
export function HeartbeatsPanel({ tenantId }: { tenantId: string }) {
  const { tenant } = useCurrentTenant();
  const canManage = !!tenant?.abilities.manageIntegrations;
  const list = useHeartbeats(tenantId);
  const pause = useSetHeartbeatPaused(tenantId);
  const renew = useRenewPingUrl(tenantId);
  const remove = useDeleteHeartbeat(tenantId);
  const [form, setForm] = useState<{ editing: Heartbeat | null } | null>(null);
  const [revealed, setRevealed] = useState<HeartbeatWithPingUrl | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'renew' | 'delete'; heartbeat: Heartbeat } | null>(null);

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={HEARTBEAT_MSG.loadFailed} onRetry={() => void list.refetch()} />;
  const failed = (err: unknown) => notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The action failed. Please try again.' });

  return (
    <Stack gap="md" data-testid="heartbeats-panel">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3">
            Heartbeats
          </Title>
          <Text size="sm" c="dimmed">
            Scheduled jobs (backups, syncs, cron tasks) ping their URL when they run; a ping that does not come in time opens an alert.
          </Text>
        </div>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ editing: null })}>
            New monitor
          </Button>
        )}
      </Group>

      {list.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconHeartbeat size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="heartbeats-empty">
            {HEARTBEAT_MSG.none}
          </Text>
        </Paper>
      ) : (
        list.data.map((h) => (
          <HeartbeatCard
            key={h.id}
            heartbeat={h}
            canManage={canManage}
            busy={pause.isPending && pause.variables?.id === h.id}
            onEdit={() => setForm({ editing: h })}
            onTogglePause={() =>
              pause.mutate(
                { id: h.id, paused: h.state !== 'paused' },
                { onSuccess: (r) => notifications.show({ color: 'green', message: r.state === 'paused' ? `${h.name} is paused` : `${h.name} is monitored again` }), onError: failed },
              )
            }
            onRenew={() => setConfirm({ kind: 'renew', heartbeat: h })}
            onDelete={() => setConfirm({ kind: 'delete', heartbeat: h })}
          />
        ))
      )}

      {form && (
        <HeartbeatFormModal
          key={form.editing?.id ?? 'new'}
          tenantId={tenantId}
          editing={form.editing}
          onClose={() => setForm(null)}
          onCreated={(r) => {
            setForm(null);
            setRevealed(r);
          }}
        />
      )}
      <PingUrlModal revealed={revealed} onClose={() => setRevealed(null)} />
      <ConfirmModal
        opened={confirm?.kind === 'renew'}
        title="Renew ping URL"
        confirmLabel="Renew URL"
        color="orange"
        centered={false}
        data-testid="confirm-modal"
        loading={renew.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          confirm &&
          renew.mutate(confirm.heartbeat.id, {
            onSuccess: (r) => {
              setConfirm(null);
              setRevealed(r);
            },
            onError: failed,
          })
        }
      >
        <Text size="sm">{HEARTBEAT_MSG.renewConfirm}</Text>
      </ConfirmModal>
      <ConfirmModal
        opened={confirm?.kind === 'delete'}
        title="Delete heartbeat monitor"
        confirmLabel="Delete"
        color="red"
        centered={false}
        data-testid="confirm-modal"
        loading={remove.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          confirm &&
          remove.mutate(confirm.heartbeat.id, {
            onSuccess: () => {
              setConfirm(null);
              notifications.show({ color: 'green', message: `${confirm.heartbeat.name} is deleted` });
            },
            onError: failed,
          })
        }
      >
        <Text size="sm" fw={600} className="wrap-anywhere">
          {confirm?.heartbeat.name}
        </Text>
        <Text size="sm">{HEARTBEAT_MSG.deleteConfirm}</Text>
      </ConfirmModal>
    </Stack>
  );
}
