import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert as Callout,
  Anchor,
  Badge,
  Button,
  Code,
  Divider,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertCircle,
  IconClockExclamation,
  IconCheck,
  IconCircleCheck,
  IconLock,
  IconPlayerPlay,
  IconRepeat,
  IconUserPlus,
} from '@tabler/icons-react';
import { ALERT_MSG, type AlertDetail } from '../../../../../contract/alerts.ts';
import { PAGING_MSG } from '../../../../../contract/paging.ts';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { Loading } from '../../../components/Loading.tsx';
import { useAlert } from '../api/get-alert.ts';
import { useAlertAction, type StatusAction } from '../api/alert-action.ts';
import { useAssignAlert } from '../api/assign-alert.ts';
import { useAddAlertNote } from '../api/add-alert-note.ts';
import { useMemberChoices } from '../../../lib/member-choices.ts';
import { PriorityBadge, StatusBadge } from '../../../components/AlertBadges.tsx';
import { HoldBadges } from './HoldBadges.tsx';
import { useSnoozeAlert } from '../api/snooze-alert.ts';
import { SnoozeMenu } from './SnoozeMenu.tsx';
import { Link } from 'react-router';
import { AlertMetadata } from './AlertMetadata.tsx';
import { clientHref, TicketLink } from './AlertCardParts.tsx';
import { PagedNobodyBadge } from './PagedNobody.tsx';
import { AlertNotes } from './AlertNotes.tsx';
import { AlertTimeline } from './AlertTimeline.tsx';

const STATUS_BUTTONS: Array<{ action: 'acknowledge' | 'startWork' | 'resolve' | 'close'; call: StatusAction; label: string; color: string; icon: typeof IconCheck }> = [
  { action: 'acknowledge', call: 'acknowledge', label: 'Acknowledge', color: 'yellow', icon: IconCheck },
  { action: 'startWork', call: 'start', label: 'Start work', color: 'violet', icon: IconPlayerPlay },
  { action: 'resolve', call: 'resolve', label: 'Resolve', color: 'green', icon: IconCircleCheck },
  { action: 'close', call: 'close', label: 'Close alert', color: 'gray', icon: IconLock },
];

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" className="wrap-anywhere" data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}


const by = (name: string | null) => (name ? ` by ${name}` : '');

/** Everything about one alert, and what may be done with it now (the server says which actions apply). */
export function AlertDetailModal({ tenantId, alertId, onClose }: { tenantId: string; alertId: string | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const query = useAlert(tenantId, alertId);
  return (
    <Modal
      opened={!!alertId}
      onClose={onClose}
      title="Alert details"
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
      data-testid="alert-modal"
    >
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        query.error instanceof ApiError && query.error.status === 404 ? (
          <Callout color="red" icon={<IconAlertCircle />} title={ALERT_MSG.alertNotFound} data-testid="alert-missing">
            {ALERT_MSG.alertGone}
          </Callout>
        ) : (
          <Callout color="red" icon={<IconAlertCircle />} data-testid="alert-load-failed">
            <Group justify="space-between" gap="xs">
              <span>{ALERT_MSG.alertLoadFailed}</span>
              <Button size="xs" variant="default" onClick={() => void query.refetch()} loading={query.isFetching}>
                Retry
              </Button>
            </Group>
          </Callout>
        )
      ) : (
        <AlertDetailBody tenantId={tenantId} detail={query.data} />
      )}
    </Modal>
  );
}

function AlertDetailBody({ tenantId, detail }: { tenantId: string; detail: AlertDetail }) {
  const { alert } = detail;
  const action = useAlertAction(tenantId, alert.id);
  const assign = useAssignAlert(tenantId, alert.id);
  const note = useAddAlertNote(tenantId, alert.id);
  const snooze = useSnoozeAlert(tenantId, alert.id);
  const snoozed = !!alert.snoozedUntil && Date.parse(alert.snoozedUntil) > Date.now();
  const canAssign = alert.actions.includes('assign');
  const assignees = useMemberChoices(tenantId, { enabled: canAssign });
  const [assignee, setAssignee] = useState<string | null>(alert.assignedTo);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => setAssignee(alert.assignedTo), [alert.assignedTo]);

  const onError = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409) setProblem(ALERT_MSG.noLongerAllowed);
    else setProblem(err instanceof ApiError && err.status === 400 ? err.message : ALERT_MSG.actionFailed);
  };
  const busy = action.isPending || assign.isPending || note.isPending || snooze.isPending;

  return (
    <Stack gap="md">
      <div>
        <Group gap={6} mb={6}>
          <PriorityBadge priority={alert.priority} />
          <StatusBadge status={alert.status} />
          {alert.overdueAt && (
            <Badge color="red" variant="filled" size="sm" leftSection={<IconClockExclamation size={12} />}>
              {PAGING_MSG.overdue}
            </Badge>
          )}
          {alert.pagedNobody && <PagedNobodyBadge mark={alert.pagedNobody} />}
          <HoldBadges alert={alert} />
          {alert.occurrences > 1 && (
            <Badge variant="outline" color="gray" size="sm" leftSection={<IconRepeat size={12} />}>
              ×{alert.occurrences}
            </Badge>
          )}
        </Group>
        <Title order={3} className="wrap-anywhere" data-testid="alert-title">
          {alert.title}
        </Title>
      </div>

      {problem && (
        <Callout color="orange" icon={<IconAlertCircle />} withCloseButton onClose={() => setProblem(null)} data-testid="alert-problem">
          {problem}
        </Callout>
      )}

      {(alert.actions.some((a) => a !== 'addNote' && a !== 'assign') || canAssign) && (
        <Paper withBorder p="sm" radius="md">
          <Stack gap="sm">
            <Group gap="sm">
              {STATUS_BUTTONS.filter((b) => alert.actions.includes(b.action)).map((b) => (
                <Button
                  key={b.action}
                  color={b.color}
                  autoContrast
                  leftSection={<b.icon size={16} />}
                  loading={action.isPending && action.variables === b.call}
                  disabled={busy}
                  onClick={() => {
                    setProblem(null);
                    action.mutate(b.call, { onError });
                  }}
                >
                  {b.label}
                </Button>
              ))}
              {/* Snooze: while unacknowledged (the server refuses it otherwise), as acknowledging is. */}
              {alert.status === 'new' && (
                <SnoozeMenu
                  snoozed={snoozed}
                  loading={snooze.isPending}
                  disabled={busy}
                  onSnooze={(body) => {
                    setProblem(null);
                    snooze.mutate(body, { onError });
                  }}
                />
              )}
            </Group>
            {canAssign && (
              <Group gap="sm" align="flex-end" wrap="wrap">
                <Select
                  label="Assign to"
                  placeholder={assignees.isPending ? 'Loading...' : 'Choose a member'}
                  data={(assignees.data ?? []).map((u) => ({ value: u.id, label: u.displayName === u.email ? u.email : `${u.displayName} (${u.email})` }))}
                  value={assignee}
                  onChange={setAssignee}
                  searchable
                  nothingFoundMessage="No member matches"
                  className="grow" miw={200}
                  comboboxProps={{ withinPortal: true }}
                  data-testid="assign-select"
                />
                <Button
                  variant="light"
                  leftSection={<IconUserPlus size={16} />}
                  disabled={!assignee || busy || assignee === alert.assignedTo}
                  loading={assign.isPending}
                  onClick={() => {
                    setProblem(null);
                    if (assignee) assign.mutate(assignee, { onError });
                  }}
                >
                  Assign
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      )}

      <div>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          Description
        </Text>
        <Text size="sm" className="pre-wrap" data-testid="alert-description">
          {alert.description || <Text span c="dimmed">No description</Text>}
        </Text>
      </div>

      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" verticalSpacing="sm">
        <Field label="Source">{alert.source}</Field>
        <Field label="Client">
          {alert.clientId && alert.clientName ? (
            <Anchor component={Link} to={clientHref(alert.clientId)} size="sm" data-testid="alert-modal-client">
              {alert.clientName}
            </Anchor>
          ) : (
            (alert.clientName ?? 'No client')
          )}
        </Field>
        <Field label="Integration">{alert.integrationName ?? 'N/A'}</Field>
        {alert.ticket && (
          <Field label="PSA ticket">
            <TicketLink ticket={alert.ticket} prefix="Ticket " size="sm" />
          </Field>
        )}
        <Field label="Created">{formatDateTime(alert.createdAt)}</Field>
        <Field label="Updated">{formatDateTime(alert.updatedAt)}</Field>
        <Field label="Last seen">{formatDateTime(alert.lastSeenAt)}</Field>
        <Field label="Acknowledged" testId="alert-acknowledged">
          {formatDateTime(alert.acknowledgedAt)}
          {alert.acknowledgedAt ? by(detail.acknowledgedByName) : ''}
        </Field>
        <Field label="Resolved" testId="alert-resolved">
          {formatDateTime(alert.resolvedAt)}
          {alert.resolvedAt ? by(detail.resolvedByName) : ''}
        </Field>
        {alert.closedAt && (
          <Field label="Closed">
            {formatDateTime(alert.closedAt)}
            {by(detail.closedByName)}
          </Field>
        )}
        <Field label="Assignee" testId="alert-assignee">
          {alert.assigneeName ?? 'Unassigned'}
        </Field>
        <Field label="Dedup key">
          <Code>{alert.dedupKey ?? 'N/A'}</Code>
        </Field>
      </SimpleGrid>

      <div>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
          Tags
        </Text>
        {alert.tags.length ? (
          <Group gap={6}>
            {alert.tags.map((t) => (
              <Badge key={t} variant="outline" tt="none" maw="100%" className="wrap-anywhere">
                {t}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No tags
          </Text>
        )}
      </div>

      <AlertMetadata metadata={alert.metadata} />

      <Divider />

      <AlertNotes
        notes={detail.notes}
        canAdd={alert.actions.includes('addNote')}
        busy={busy}
        adding={note.isPending}
        onAdd={(text, added) => {
          setProblem(null);
          note.mutate(text, { onError, onSuccess: added });
        }}
      />

      <Divider />

      <AlertTimeline timeline={detail.timeline} />
    </Stack>
  );
}
