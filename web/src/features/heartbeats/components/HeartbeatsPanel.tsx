import { useState } from 'react';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHeartbeat } from '@tabler/icons-react';
import { HEARTBEAT_MSG, type Heartbeat, type HeartbeatWithPingUrl } from '../../../../../contract/heartbeats.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { ConfirmCardAction } from '../../../components/ConfirmCardAction.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { notifyActionFailed } from '../../../components/notify-action-failed.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { useDeleteHeartbeat } from '../api/delete-heartbeat.ts';
import { useHeartbeats } from '../api/list-heartbeats.ts';
import { useSetHeartbeatPaused } from '../api/pause-heartbeat.ts';
import { useRenewPingUrl } from '../api/renew-ping-url.ts';
import { HeartbeatCard } from './HeartbeatCard.tsx';
import { HeartbeatFormModal } from './HeartbeatFormModal.tsx';
import { PingUrlModal } from './PingUrlModal.tsx';

const INTRO = 'Scheduled jobs (backups, syncs, cron tasks) ping their URL when they run; a ping that does not come in time opens an alert.';

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

  const close = () => setConfirm(null);
  const deleted = (_: unknown, h: Heartbeat) => notifications.show({ color: 'green', message: `${h.name} is deleted` });

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={HEARTBEAT_MSG.loadFailed} onRetry={() => void list.refetch()} />;

  return (
    <ListPanel
      data-testid="heartbeats-panel"
      header={{ title: 'Heartbeats', description: INTRO, action: canManage && <AddButton onClick={() => setForm({ editing: null })}>New monitor</AddButton> }}
      items={list.data}
      empty={{ icon: IconHeartbeat, text: HEARTBEAT_MSG.none, testId: 'heartbeats-empty' }}
      card={(h) => (
        <HeartbeatCard
          heartbeat={h}
          canManage={canManage}
          busy={pause.isPending && pause.variables?.id === h.id}
          onEdit={() => setForm({ editing: h })}
          onTogglePause={() =>
            pause.mutate(
              { id: h.id, paused: h.state !== 'paused' },
              { onSuccess: (r) => notifications.show({ color: 'green', message: r.state === 'paused' ? `${h.name} is paused` : `${h.name} is monitored again` }), onError: notifyActionFailed },
            )
          }
          onRenew={() => setConfirm({ kind: 'renew', heartbeat: h })}
          onDelete={() => setConfirm({ kind: 'delete', heartbeat: h })}
        />
      )}
    >
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
      <ConfirmCardAction target={confirm?.kind === 'renew' ? confirm.heartbeat : null} action={renew} title="Renew ping URL" confirmLabel="Renew URL" color="orange" onClose={close} onDone={setRevealed}>
        <Text size="sm">{HEARTBEAT_MSG.renewConfirm}</Text>
      </ConfirmCardAction>
      <ConfirmCardAction target={confirm?.kind === 'delete' ? confirm.heartbeat : null} action={remove} title="Delete heartbeat monitor" confirmLabel="Delete" color="red" onClose={close} onDone={deleted}>
        <Text size="sm" fw={600} className="wrap-anywhere">
          {confirm?.heartbeat.name}
        </Text>
        <Text size="sm">{HEARTBEAT_MSG.deleteConfirm}</Text>
      </ConfirmCardAction>
    </ListPanel>
  );
}
