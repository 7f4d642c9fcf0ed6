import { useState } from 'react';
import { Alert as Callout, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconBuildingCommunity, IconCircleCheck, IconEdit, IconPlugConnected, IconTicket, IconTrash } from '@tabler/icons-react';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import { PSA_NAMES, type PsaConnection, type PsaTestResult } from '../../../../../contract/psa.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { CardButton } from '../../../components/CardButton.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Copyable } from '../../../components/Copyable.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { notifyActionFailed } from '../../../components/notify-action-failed.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useDeletePsaConnection, usePsaConnections, useTestPsaConnection } from '../api/psa-connections.ts';
import { PsaCompanyMapModal } from './PsaCompanyMapModal.tsx';
import { PsaConnectionFormModal } from './PsaConnectionFormModal.tsx';
import { INBOUND_HELP, PSA_UI } from './psa-texts.ts';

function rulesText(c: PsaConnection): string {
  const when = c.rules.triggerMode === 'on_trigger' ? 'on trigger' : `when unacknowledged after ${c.rules.unacknowledgedMinutes} min`;
  return `${c.rules.priorities.map((p) => PRIORITY_LABELS[p]).join(', ')} open a ticket ${when} · ${c.rules.catchAllCompanyId ? `catch-all company ${c.rules.catchAllCompanyId}` : 'no catch-all company'}`;
}

interface CardProps {
  c: PsaConnection;
  testing: boolean;
  tested: PsaTestResult | undefined;
  onTest: () => void;
  onMap: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

function ConnectionCard({ c, testing, tested, onTest, onMap, onEdit, onDelete }: CardProps) {
  return (
    <Paper withBorder p="md" radius="md" data-testid="psa-card" data-name={c.name} data-type={c.type}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap={8} className="min-w-0">
          <IconTicket size={20} stroke={1.5} aria-hidden />
          <Text fw={700} className="wrap-anywhere">
            {c.name}
          </Text>
          <Badge variant="outline" color="gray" tt="none">
            {PSA_NAMES[c.type]}
          </Badge>
          <Badge variant="light" color={c.enabled ? 'green' : 'gray'}>
            {c.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
          {c.queueLength > 0 && (
            <Badge variant="light" color="orange" tt="none" data-testid="psa-queue">
              {PSA_UI.queue(c.queueLength)}
            </Badge>
          )}
        </Group>
        <Group gap={4}>
          <CardButton icon={IconPlugConnected} onClick={onTest} loading={testing}>
            Test connection
          </CardButton>
          <CardButton icon={IconBuildingCommunity} onClick={onMap}>
            Company mapping
          </CardButton>
          <CardButton icon={IconEdit} onClick={onEdit}>
            Edit
          </CardButton>
          <CardButton icon={IconTrash} color="red" onClick={onDelete} aria-label={`Delete ${c.name}`}>
            Delete
          </CardButton>
        </Group>
      </Group>
      {tested && (
        <Callout color={tested.ok ? 'green' : 'red'} p="xs" mt="xs" icon={tested.ok ? <IconCircleCheck size={16} /> : <IconAlertTriangle size={16} />} className="wrap-anywhere" data-testid="psa-test-result" data-ok={String(tested.ok)}>
          Test connection: {tested.message}
        </Callout>
      )}
      {c.lastError && (
        <Text size="sm" c="red" mt={4} className="wrap-anywhere" data-testid="psa-last-error">
          Last error{c.lastErrorAt ? ` (${formatDateTime(c.lastErrorAt)})` : ''}: {c.lastError}
        </Text>
      )}
      <Text size="sm" c="dimmed" mt={4}>
        {rulesText(c)}
      </Text>
      <Stack gap={4} mt="xs">
        {c.inboundUrl && <Copyable value={c.inboundUrl} label="inbound URL" />}
        <Text size="xs" c="dimmed" data-testid="psa-inbound-help">
          {INBOUND_HELP[c.type]}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The tenant's PSA connections (Tenant Admin's PSA tab; owners and admins). */
export function PsaPanel({ tenantId }: { tenantId: string }) {
  const list = usePsaConnections(tenantId);
  const test = useTestPsaConnection(tenantId);
  const remove = useDeletePsaConnection(tenantId);
  const [form, setForm] = useState<{ editing: PsaConnection | null } | null>(null);
  const [mapOf, setMapOf] = useState<PsaConnection | null>(null);
  const [deleting, setDeleting] = useState<PsaConnection | null>(null);
  const [tested, setTested] = useState<Record<string, PsaTestResult>>({});

  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError message={PSA_UI.loadFailed} onRetry={() => void list.refetch()} />;

  return (
    <ListPanel
      data-testid="psa-panel"
      header={{ title: PSA_UI.title, description: PSA_UI.intro, action: <AddButton onClick={() => setForm({ editing: null })}>New PSA connection</AddButton> }}
      items={list.data}
      empty={{ icon: IconTicket, text: PSA_UI.none, testId: 'psa-empty' }}
      card={(c) => (
        <ConnectionCard
          c={c}
          testing={test.isPending && test.variables === c.id}
          tested={tested[c.id]}
          onEdit={() => setForm({ editing: c })}
          onMap={() => setMapOf(c)}
          onDelete={() => setDeleting(c)}
          onTest={() => test.mutate(c.id, { onSuccess: (r) => setTested((s) => ({ ...s, [c.id]: r })), onError: notifyActionFailed })}
        />
      )}
    >
      {form && <PsaConnectionFormModal key={form.editing?.id ?? 'new'} tenantId={tenantId} editing={form.editing} onClose={() => setForm(null)} />}
      {mapOf && <PsaCompanyMapModal tenantId={tenantId} connection={mapOf} onClose={() => setMapOf(null)} />}
      {deleting && (
        <ConfirmModal
          opened
          centered={false}
          data-testid="confirm-modal"
          title="Delete PSA connection"
          confirmLabel="Delete"
          loading={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                setDeleting(null);
                notifications.show({ color: 'green', message: PSA_UI.deleted(deleting.name) });
              },
              onError: notifyActionFailed,
            })
          }
        >
          <Text size="sm">{PSA_UI.deleteConfirm(deleting.name)}</Text>
        </ConfirmModal>
      )}
    </ListPanel>
  );
}
