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
  Table,
  Text,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertCircle,
  IconBolt,
  IconCheck,
  IconCircleCheck,
  IconLock,
  IconNote,
  IconPlayerPlay,
  IconRepeat,
  IconUserPlus,
} from '@tabler/icons-react';
import { ALERT_MSG, type AlertDetail, type TimelineEntry } from '../../../../../contract/alerts.ts';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { Loading } from '../../../components/Loading.tsx';
import { useAlert } from '../api/get-alert.ts';
import { useAlertAction, type StatusAction } from '../api/alert-action.ts';
import { useAssignAlert } from '../api/assign-alert.ts';
import { useAddAlertNote } from '../api/add-alert-note.ts';
import { useAssignees } from '../api/list-assignees.ts';
import { PriorityBadge, StatusBadge } from './AlertBadges.tsx';

const STATUS_BUTTONS: Array<{ action: 'acknowledge' | 'startWork' | 'resolve' | 'close'; call: StatusAction; label: string; color: string; icon: typeof IconCheck }> = [
  { action: 'acknowledge', call: 'acknowledge', label: 'Acknowledge', color: 'yellow', icon: IconCheck },
  { action: 'startWork', call: 'start', label: 'Start work', color: 'violet', icon: IconPlayerPlay },
  { action: 'resolve', call: 'resolve', label: 'Resolve', color: 'green', icon: IconCircleCheck },
  { action: 'close', call: 'close', label: 'Close alert', color: 'gray', icon: IconLock },
];

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

const metadataValue = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

const isLink = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\//.test(v);

function timelineText(e: TimelineEntry) {
  switch (e.kind) {
    case 'triggered':
      return `Triggered by ${e.actorName}`;
    case 'repeated':
      return `Repeated: seen ${String(e.detail.occurrences)} times`;
    case 'acknowledged':
      return `Acknowledged by ${e.actorName}`;
    case 'started':
      return `${e.actorName} started work`;
    case 'resolved':
      return `Resolved by ${e.actorName}`;
    case 'closed':
      return `Closed by ${e.actorName}`;
    case 'assigned':
      return `${e.actorName} assigned it to ${String(e.detail.assigneeName ?? 'someone')}`;
    case 'note':
      return `${e.actorName} added a note`;
  }
}

const TIMELINE_ICONS: Record<TimelineEntry['kind'], typeof IconBolt> = {
  triggered: IconBolt,
  repeated: IconRepeat,
  acknowledged: IconCheck,
  started: IconPlayerPlay,
  resolved: IconCircleCheck,
  closed: IconLock,
  assigned: IconUserPlus,
  note: IconNote,
};

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
        <Callout color="red" icon={<IconAlertCircle />}>
          {query.error instanceof ApiError && query.error.status === 404 ? ALERT_MSG.alertNotFound : ALERT_MSG.alertLoadFailed}
        </Callout>
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
  const canAssign = alert.actions.includes('assign');
  const assignees = useAssignees(tenantId, canAssign);
  const [assignee, setAssignee] = useState<string | null>(alert.assignedTo);
  const [noteText, setNoteText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => setAssignee(alert.assignedTo), [alert.assignedTo]);

  const onError = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409) setProblem(ALERT_MSG.noLongerAllowed);
    else setProblem(err instanceof ApiError && err.status === 400 ? err.message : ALERT_MSG.actionFailed);
  };
  const busy = action.isPending || assign.isPending || note.isPending;
  const metadata = Object.entries(alert.metadata);

  return (
    <Stack gap="md">
      <div>
        <Group gap={6} mb={6}>
          <PriorityBadge priority={alert.priority} />
          <StatusBadge status={alert.status} />
          {alert.occurrences > 1 && (
            <Badge variant="outline" color="gray" size="sm" leftSection={<IconRepeat size={12} />}>
              ×{alert.occurrences}
            </Badge>
          )}
        </Group>
        <Title order={3} style={{ overflowWrap: 'anywhere' }} data-testid="alert-title">
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
                  style={{ flex: 1, minWidth: 200 }}
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
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="alert-description">
          {alert.description || <Text span c="dimmed">No description</Text>}
        </Text>
      </div>

      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" verticalSpacing="sm">
        <Field label="Source">{alert.source}</Field>
        <Field label="Client">{alert.clientName ?? 'No client'}</Field>
        <Field label="Integration">{alert.integrationName ?? 'N/A'}</Field>
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
              <Badge key={t} variant="outline" tt="none" maw="100%" style={{ overflowWrap: 'anywhere' }}>
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

      <div>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
          Metadata
        </Text>
        {metadata.length ? (
          <Table.ScrollContainer minWidth={320}>
            <Table withTableBorder withColumnBorders striped data-testid="alert-metadata">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="35%">Key</Table.Th>
                  <Table.Th>Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {metadata.map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{k}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {isLink(v) ? (
                        <Anchor href={v} target="_blank" rel="noreferrer noopener" size="sm">
                          {v}
                        </Anchor>
                      ) : (
                        metadataValue(v)
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm" c="dimmed">
            No metadata
          </Text>
        )}
      </div>

      <Divider />

      <div>
        <Title order={4} mb="xs">
          Notes
        </Title>
        <Stack gap="xs" data-testid="alert-notes">
          {detail.notes.length === 0 && (
            <Text size="sm" c="dimmed">
              No notes yet
            </Text>
          )}
          {detail.notes.map((n) => (
            <Paper key={n.id} withBorder p="xs" radius="md" data-testid="alert-note">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {n.text}
              </Text>
              <Text size="xs" c="dimmed" mt={4}>
                {n.createdByName} · {formatDateTime(n.createdAt)}
              </Text>
            </Paper>
          ))}
        </Stack>
        {alert.actions.includes('addNote') && (
          <Stack gap="xs" mt="sm">
            <Textarea label="Add a note" placeholder="What did you find or do?" autosize minRows={2} maxRows={8} value={noteText} onChange={(e) => setNoteText(e.currentTarget.value)} />
            <Group justify="flex-end">
              <Button
                leftSection={<IconNote size={16} />}
                disabled={!noteText.trim() || busy}
                loading={note.isPending}
                onClick={() => {
                  setProblem(null);
                  note.mutate(noteText, { onError, onSuccess: () => setNoteText('') });
                }}
              >
                Add Note
              </Button>
            </Group>
          </Stack>
        )}
      </div>

      <Divider />

      <div>
        <Title order={4} mb="sm">
          Timeline
        </Title>
        <Timeline active={detail.timeline.length} bulletSize={24} lineWidth={2} data-testid="alert-timeline">
          {detail.timeline.map((e) => {
            const Icon = TIMELINE_ICONS[e.kind];
            return (
              <Timeline.Item key={e.id} bullet={<Icon size={13} />} title={<Text size="sm" fw={600}>{timelineText(e)}</Text>}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(e.at)}
                </Text>
              </Timeline.Item>
            );
          })}
        </Timeline>
      </div>
    </Stack>
  );
}
