import { useState } from 'react';
import { ActionIcon, Alert as Callout, Badge, Button, Code, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconMailbox, IconRefresh } from '@tabler/icons-react';
import type { RulesPreview } from '../../../../../contract/ingest-formats.ts';
import { PriorityBadge } from '../../../components/AlertBadges.tsx';
import { EmptyCard } from '../../../components/EmptyCard.tsx';
import { PanelTitle } from '../../../components/PanelHeader.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';

export const PREVIEW_TEXT = {
  empty: 'No events received yet: send one to see the preview',
  failed: 'The preview could not be loaded',
} as const;

type PreviewEvent = RulesPreview['events'][number];
type PreviewAlert = PreviewEvent['alerts'][number];

function pretty(body: string) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** What the rules make of one alert of an event: dropped, or its client, priority and dedup key, and which rule. */
function Outcome({ alert, ownClient, policyOfRule }: { alert: PreviewAlert; ownClient: string | null; policyOfRule: (rule: number | null) => string | null }) {
  const rule = alert.rule === null ? 'No rule' : `Rule ${alert.rule + 1}`;
  const policy = alert.dropped ? null : policyOfRule(alert.rule);
  return (
    <Stack gap={4} data-testid="preview-alert" data-dropped={alert.dropped || undefined}>
      <Text size="sm" fw={600} className="wrap-anywhere" lineClamp={2}>
        {alert.action === 'trigger' ? alert.title || 'No title' : `${alert.action === 'resolve' ? 'Resolve' : 'Acknowledge'} ${alert.dedupKey}`}
      </Text>
      <Group gap={6} wrap="wrap">
        <Badge size="sm" variant={alert.rule === null ? 'outline' : 'light'} color={alert.rule === null ? 'gray' : 'blue'} data-testid="preview-rule">
          {rule}
        </Badge>
        {alert.dropped ? (
          <Badge size="sm" color="red" variant="filled" data-testid="preview-dropped">
            Dropped
          </Badge>
        ) : (
          <>
            <PriorityBadge priority={alert.priority} />
            <Text size="sm" data-testid="preview-client">
              {alert.clientName ?? (ownClient ? `${ownClient} (integration’s)` : 'No client')}
            </Text>
          </>
        )}
      </Group>
      {policy && (
        <Text size="xs" c="dimmed" className="wrap-anywhere" data-testid="preview-policy">
          Escalation policy: {policy}
        </Text>
      )}
      {!alert.dropped && (
        <Text size="xs" c="dimmed" className="wrap-anywhere">
          Dedup key <Code data-testid="preview-dedup">{alert.dedupKey}</Code>
        </Text>
      )}
    </Stack>
  );
}

function EventRow({ event, ownClient, policyOfRule }: { event: PreviewEvent; ownClient: string | null; policyOfRule: (rule: number | null) => string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="preview-event">
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={6}>
        <Group gap={6} wrap="nowrap" className="min-w-0">
          <Badge size="sm" variant="default" className="no-shrink">
            {event.format}
          </Badge>
          <Text size="xs" c="dimmed" truncate>
            {formatDateTime(event.receivedAt)}
          </Text>
        </Group>
        <Button size="compact-xs" variant="subtle" onClick={() => setOpen((o) => !o)} aria-expanded={open} style={{ flexShrink: 0 }}>
          {open ? 'Hide event' : 'Show event'}
        </Button>
      </Group>
      {event.error ? (
        <Text size="sm" c="red">
          {event.error}
        </Text>
      ) : event.alerts.length === 0 ? (
        <Text size="sm" c="dimmed">
          No alert in this event.
        </Text>
      ) : (
        <Stack gap="xs">
          {event.alerts.map((a, i) => (
            <Outcome key={i} alert={a} ownClient={ownClient} policyOfRule={policyOfRule} />
          ))}
        </Stack>
      )}
      {open && (
        <Code block mt="xs" style={{ maxHeight: '16rem', overflow: 'auto', fontSize: 12 }} data-testid="preview-body">
          {pretty(event.body)}
        </Code>
      )}
    </Paper>
  );
}

/**
 * The live preview: the integration's last raw events and what the rules being edited (not saved yet) make of each.
 * A 400 means a rule is not complete or not valid yet: its message is shown and the last answer stays.
 */
export function RulesPreviewPanel({
  preview,
  pending,
  fetching,
  error,
  onRetry,
  ownClient,
  policyOfRule,
}: {
  preview: RulesPreview | undefined;
  pending: boolean;
  fetching: boolean;
  error: unknown;
  onRetry: () => void;
  ownClient: string | null;
  policyOfRule: (rule: number | null) => string | null;
}) {
  const refused = error instanceof ApiError && error.status === 400 ? error.message : null;
  return (
    <Stack gap="xs" data-testid="rules-preview" aria-busy={fetching}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <PanelTitle sub title="Preview" description="The last 20 events, with these rules (not saved yet)." />
        <Group gap={4} wrap="nowrap">
          {fetching && <Loader size="xs" aria-label="Updating the preview" />}
          <Tooltip label="Refresh">
            <ActionIcon variant="subtle" color="gray" onClick={onRetry} aria-label="Refresh the preview">
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {refused && (
        <Callout color="yellow" icon={<IconAlertTriangle />} data-testid="preview-refused" p="xs">
          <Text size="sm">Preview paused: {refused}</Text>
        </Callout>
      )}
      {error && !refused ? (
        <Callout color="red" icon={<IconAlertTriangle />} data-testid="preview-error">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{PREVIEW_TEXT.failed}</Text>
            <Button size="compact-xs" variant="light" color="red" onClick={onRetry}>
              Retry
            </Button>
          </Group>
        </Callout>
      ) : pending && !preview ? (
        <Group gap="xs" py="md" justify="center" role="status">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            Loading...
          </Text>
        </Group>
      ) : preview && preview.events.length === 0 ? (
        <EmptyCard compact icon={IconMailbox} data-testid="preview-empty">
          {PREVIEW_TEXT.empty}
        </EmptyCard>
      ) : (
        preview?.events.map((e) => <EventRow key={e.id} event={e} ownClient={ownClient} policyOfRule={policyOfRule} />)
      )}
    </Stack>
  );
}
