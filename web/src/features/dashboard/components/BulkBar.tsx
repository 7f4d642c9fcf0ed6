import { useState } from 'react';
import { Alert as Callout, Button, Group, List, Paper, Select, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCircleCheck, IconUserPlus, IconX } from '@tabler/icons-react';
import type { Alert, BulkAction, BulkAlertResult, SnoozeBody } from '../../../../../contract/alerts.ts';
import { refusalReason } from '../../../lib/api.ts';
import { memberLabel, useMemberChoices } from '../../../lib/member-choices.ts';
import { useBulkAlertAction } from '../api/bulk-alert-action.ts';
import { bulkSummary, doneWord } from '../lib/bulk-summary.ts';
import { SnoozeMenu } from './SnoozeMenu.tsx';

/** What a bulk change left undone, per alert (title and the server's reason), until dismissed. */
export interface BulkProblems {
  action: BulkAction;
  items: Array<{ id: string; title: string; message: string }>;
}

interface BulkBarProps {
  tenantId: string;
  selected: Alert[];
  onDone: (result: BulkAlertResult, action: BulkAction) => void;
  onClear: () => void;
}

/**
 * Actions on the selected alerts: acknowledge, resolve, assign or snooze them all in one request. It floats at the bottom of
 * the window, so selecting never moves the list under the pointer.
 */
export function BulkBar({ tenantId, selected, onDone, onClear }: BulkBarProps) {
  const bulk = useBulkAlertAction(tenantId);
  const members = useMemberChoices(tenantId);
  const [assignee, setAssignee] = useState<string | null>(null);
  const run = (action: BulkAction, snooze?: SnoozeBody) =>
    bulk.mutate(
      { action, alertIds: selected.map((a) => a.id), ...(action === 'assign' ? { userId: assignee ?? undefined } : {}), ...snooze },
      {
        onSuccess: (result) => {
          // Alerts found already done (a colleague was quicker) count as done, and the toast says how many.
          const already = result.results.filter((r) => r.ok && r.unchanged).length;
          if (result.succeeded > 0) notifications.show({ color: 'green', message: bulkSummary(action, result.succeeded - already, already) });
          onDone(result, action);
        },
        onError: (e) => notifications.show({ color: 'red', message: refusalReason(e) ?? 'The action failed. Please try again.' }),
      },
    );
  const can = (action: 'acknowledge' | 'resolve' | 'assign') => selected.some((a) => a.actions.includes(action));
  return (
    <Paper withBorder p="xs" radius="md" shadow="lg" className="bulk-bar" data-testid="bulk-bar" role="region" aria-label="Selected alerts">
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={600} data-testid="bulk-count">
          {selected.length} selected
        </Text>
        <Button size="xs" color="yellow" leftSection={<IconCheck size={14} />} onClick={() => run('acknowledge')} loading={bulk.isPending && bulk.variables?.action === 'acknowledge'} disabled={bulk.isPending || !can('acknowledge')} data-testid="bulk-acknowledge">
          Acknowledge
        </Button>
        <Button size="xs" color="green" leftSection={<IconCircleCheck size={14} />} onClick={() => run('resolve')} loading={bulk.isPending && bulk.variables?.action === 'resolve'} disabled={bulk.isPending || !can('resolve')} data-testid="bulk-resolve">
          Resolve
        </Button>
        <SnoozeMenu
          size="xs"
          snoozed={selected.some((a) => !!a.snoozedUntil && Date.parse(a.snoozedUntil) > Date.now())}
          loading={bulk.isPending && (bulk.variables?.action === 'snooze' || bulk.variables?.action === 'unsnooze')}
          disabled={bulk.isPending || !selected.some((a) => a.status === 'new')}
          onSnooze={(body) => (body ? run('snooze', body) : run('unsnooze'))}
        />
        <Group gap={6} wrap="nowrap">
          <Select
            size="xs"
            aria-label="Assign to"
            placeholder="Assign to…"
            data={(members.data ?? []).map((m) => ({ value: m.id, label: memberLabel(m) }))}
            value={assignee}
            onChange={setAssignee}
            searchable
            w={180}
            data-testid="bulk-assignee"
          />
          <Button size="xs" variant="default" leftSection={<IconUserPlus size={14} />} onClick={() => run('assign')} loading={bulk.isPending && bulk.variables?.action === 'assign'} disabled={bulk.isPending || !assignee || !can('assign')} data-testid="bulk-assign">
            Assign
          </Button>
        </Group>
        <Button size="xs" variant="subtle" leftSection={<IconX size={14} />} onClick={onClear}>
          Clear selection
        </Button>
      </Group>
    </Paper>
  );
}

/** The alerts a bulk change could not change, each with why (changed meanwhile, deleted, …). */
export function BulkProblemsNotice({ problems, onClose }: { problems: BulkProblems; onClose: () => void }) {
  const n = problems.items.length;
  return (
    <Callout color="yellow" mb="sm" withCloseButton onClose={onClose} closeButtonLabel="Dismiss" title={`${n} ${n === 1 ? 'alert was' : 'alerts were'} not ${doneWord(problems.action)}`} data-testid="bulk-problems">
      <List size="sm" spacing={2}>
        {problems.items.map((p) => (
          <List.Item key={p.id}>
            <Text span fw={600} size="sm">
              {p.title}
            </Text>
            : {p.message}
          </List.Item>
        ))}
      </List>
    </Callout>
  );
}
