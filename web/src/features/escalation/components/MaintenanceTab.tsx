import { useMemo, useState } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTool } from '@tabler/icons-react';
import { MAINTENANCE_MSG, type MaintenanceWindow } from '../../../../../contract/maintenance.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
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
  const failed = (err: unknown) => notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The action failed. Please try again.' });
  const done = (message: string) => () => {
    setConfirm(null);
    notifications.show({ color: 'green', message });
  };

  return (
    <Stack gap="md" data-testid="maintenance-tab">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          {MAINTENANCE_MSG.formHint}
        </Text>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ editing: null })} data-testid="maintenance-new">
            New window
          </Button>
        )}
      </Group>
      {windows.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconTool size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="maintenance-empty">
            {MAINTENANCE_MSG.none}
          </Text>
        </Paper>
      ) : (
        windows.map((w) => (
          <MaintenanceWindowCard
            key={w.id}
            window={w}
            clients={clientNames}
            integrations={integrationNames}
            canManage={canManage}
            onEdit={() => setForm({ editing: w })}
            onEnd={() => setConfirm({ kind: 'end', window: w })}
            onDelete={() => setConfirm({ kind: 'delete', window: w })}
          />
        ))
      )}
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
          if (confirm.kind === 'end') end.mutate(confirm.window.id, { onSuccess: done(`${confirm.window.name} has ended`), onError: failed });
          else remove.mutate(confirm.window.id, { onSuccess: done(`${confirm.window.name} is deleted`), onError: failed });
        }}
      >
        <Text size="sm" fw={600} className="wrap-anywhere">
          {confirm?.window.name}
        </Text>
        <Text size="sm">{confirm?.kind === 'end' ? MAINTENANCE_MSG.endConfirm : MAINTENANCE_MSG.deleteConfirm}</Text>
      </ConfirmModal>
    </Stack>
  );
}
