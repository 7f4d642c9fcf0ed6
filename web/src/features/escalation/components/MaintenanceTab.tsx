import { useMemo, useState } from 'react';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTool } from '@tabler/icons-react';
import { MAINTENANCE_MSG, type MaintenanceWindow } from '../../../../../contract/maintenance.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { notifyActionFailed } from '../../../components/notify-action-failed.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { useDeleteMaintenanceWindow, useEndMaintenanceWindow, useIntegrationChoices, useMaintenanceWindows } from '../api/maintenance.ts';
import { MaintenanceFormModal } from './MaintenanceFormModal.tsx';
import { MaintenanceWindowCard } from './MaintenanceWindowCard.tsx';

const ORDER = { active: 0, scheduled: 1, ended: 2 } as const;

/** The Escalation page's Maintenance tab (issue 31): the tenant's windows, active first; owners and admins change them. */
export function MaintenanceTab({ tenantId }: { tenantId: string }) {
  const { tenant } = useCurrentTenant();
  const canManage = !!tenant?.abilities.manageEscalation;
  const list = useMaintenanceWindows(tenantId);
  const clients = useClientChoices(tenantId);
  const integrations = useIntegrationChoices(tenantId);
  const end = useEndMaintenanceWindow(tenantId);
  const remove = useDeleteMaintenanceWindow(tenantId);
  const [form, setForm] = useState<{ editing: MaintenanceWindow | null } | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'end' | 'delete'; window: MaintenanceWindow } | null>(null);
  const clientNames = useMemo(() => new Map((clients.data ?? []).map((c) => [c.id, c.name])), [clients.data]);
  const integrationNames = useMemo(() => new Map((integrations.data ?? []).map((i) => [i.id, i.name])), [integrations.data]);

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={MAINTENANCE_MSG.loadFailed} onRetry={() => void list.refetch()} />;
  const windows = [...list.data].sort((a, b) => ORDER[a.state] - ORDER[b.state] || (a.nextStart ?? a.start ?? '').localeCompare(b.nextStart ?? b.start ?? ''));
  const done = (message: string) => () => {
    setConfirm(null);
    notifications.show({ color: 'green', message });
  };

  return (
    <ListPanel
      data-testid="maintenance-tab"
      header={{ description: MAINTENANCE_MSG.formHint, action: canManage && <AddButton onClick={() => setForm({ editing: null })} data-testid="maintenance-new">New window</AddButton> }}
      items={windows}
      empty={{ icon: IconTool, text: MAINTENANCE_MSG.none, testId: 'maintenance-empty' }}
      card={(w) => (
        <MaintenanceWindowCard
          window={w}
          clients={clientNames}
          integrations={integrationNames}
          canManage={canManage}
          onEdit={() => setForm({ editing: w })}
          onEnd={() => setConfirm({ kind: 'end', window: w })}
          onDelete={() => setConfirm({ kind: 'delete', window: w })}
        />
      )}
    >
      {form && <MaintenanceFormModal key={form.editing?.id ?? 'new'} tenantId={tenantId} editing={form.editing} onClose={() => setForm(null)} />}
      <ConfirmModal
        opened={!!confirm}
        title={confirm?.kind === 'end' ? 'End maintenance window' : 'Delete maintenance window'}
        confirmLabel={confirm?.kind === 'end' ? 'End now' : 'Delete'}
        color={confirm?.kind === 'end' ? 'orange' : 'red'}
        centered={false}
        data-testid="confirm-modal"
        loading={end.isPending || remove.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          if (!confirm) return;
          if (confirm.kind === 'end') end.mutate(confirm.window.id, { onSuccess: done(`${confirm.window.name} has ended`), onError: notifyActionFailed });
          else remove.mutate(confirm.window.id, { onSuccess: done(`${confirm.window.name} is deleted`), onError: notifyActionFailed });
        }}
      >
        <Text size="sm" fw={600} className="wrap-anywhere">
          {confirm?.window.name}
        </Text>
        <Text size="sm">{confirm?.kind === 'end' ? MAINTENANCE_MSG.endConfirm : MAINTENANCE_MSG.deleteConfirm}</Text>
      </ConfirmModal>
    </ListPanel>
  );
}
