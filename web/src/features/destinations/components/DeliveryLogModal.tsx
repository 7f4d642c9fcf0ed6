import { Badge, Button, Code, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { DESTINATION_MSG, type Delivery, type Destination } from '../../../../../contract/destinations.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useDeliveries, useRetryDelivery } from '../api/destinations.ts';

const STATUS_COLOR: Record<Delivery['status'], string> = { pending: 'yellow', succeeded: 'green', failed: 'red' };

/** What one delivery came to, in words: the answer's status and time, or why there was none, and what comes next. */
export function outcomeText(d: Delivery): string {
  const answer = d.responseStatus !== null ? `HTTP ${d.responseStatus}${d.latencyMs !== null ? ` in ${d.latencyMs} ms` : ''}` : (d.error ?? 'Not sent yet');
  const next = d.status === 'pending' && d.nextAttemptAt ? `; next attempt ${formatDateTime(d.nextAttemptAt)}` : '';
  return `${answer}${d.attempts > 1 ? ` (attempt ${d.attempts})` : ''}${next}`;
}

function DeliveryRow({ d, onRetry, busy }: { d: Delivery; onRetry: () => void; busy: boolean }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid="delivery-row" data-status={d.status}>
      <Group justify="space-between" gap="xs" align="flex-start">
        <Group gap={8} className="min-w-0">
          <Badge color={STATUS_COLOR[d.status]} variant="light">
            {d.status}
          </Badge>
          <Text size="sm" fw={600}>
            {d.eventType}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(d.createdAt)}
          </Text>
        </Group>
        {d.status !== 'pending' && (
          <Button size="xs" variant="subtle" leftSection={<IconRefresh size={14} />} onClick={onRetry} loading={busy}>
            Send again
          </Button>
        )}
      </Group>
      <Text size="sm" mt={4} className="wrap-anywhere" data-testid="delivery-outcome">
        {outcomeText(d)}
      </Text>
      {d.responseExcerpt ? (
        <Code block mt={4} className="wrap-anywhere" style={{ whiteSpace: 'pre-wrap', maxHeight: 120, overflow: 'auto' }}>
          {d.responseExcerpt}
        </Code>
      ) : null}
    </Paper>
  );
}

/** A destination's delivery log: each event sent, its status, latency and the answer's first 1 KB, with "Send again". */
export function DeliveryLogModal({ tenantId, destination, onClose }: { tenantId: string; destination: Destination; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const log = useDeliveries(tenantId, destination.id);
  const retry = useRetryDelivery(tenantId);
  return (
    <Modal opened onClose={onClose} title={`Delivery log: ${destination.name}`} size="xl" fullScreen={phone} data-testid="delivery-log">
      {log.isPending ? (
        <Loading />
      ) : log.isError ? (
        <LoadError message={DESTINATION_MSG.loadFailed} onRetry={() => void log.refetch()} />
      ) : log.data.length === 0 ? (
        <Text c="dimmed" data-testid="deliveries-empty">
          {DESTINATION_MSG.noDeliveries}
        </Text>
      ) : (
        <Stack gap="xs">
          {log.data.map((d) => (
            <DeliveryRow
              key={d.id}
              d={d}
              busy={retry.isPending && retry.variables?.deliveryId === d.id}
              onRetry={() =>
                retry.mutate(
                  { id: destination.id, deliveryId: d.id },
                  { onError: (err) => notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'Sending again failed' }) },
                )
              }
            />
          ))}
        </Stack>
      )}
    </Modal>
  );
}
