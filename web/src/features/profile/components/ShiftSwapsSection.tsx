import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SHIFT_SWAP_MSG, type ShiftSwap } from '../../../../../contract/shift-swaps.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { useSignedInMe } from '../../../lib/session.tsx';
import { useDecideShiftSwap, useShiftSwaps, type SwapDecision } from '../api/shift-swaps.ts';
import { formatRange } from './shift-range.ts';

const STATUS_COLOR: Record<ShiftSwap['status'], string> = { pending: 'yellow', approved: 'green', rejected: 'red', expired: 'gray', cancelled: 'gray' };

/** The shift swaps I asked for or was asked: accept or decline those waiting on me, cancel mine while pending. */
export function ShiftSwapsSection({ tenantId }: { tenantId: string }) {
  const me = useSignedInMe();
  const swaps = useShiftSwaps(tenantId);
  const decide = useDecideShiftSwap(tenantId);
  const [declining, setDeclining] = useState<ShiftSwap | null>(null);
  const [reason, setReason] = useState('');

  const act = (d: SwapDecision, done: string) =>
    decide.mutate(d, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: done });
        setDeclining(null);
      },
    });

  let body;
  if (swaps.isPending) body = null;
  else if (swaps.isError) {
    body = (
      <Alert color="red" title={SHIFT_SWAP_MSG.loadFailed}>
        <Button size="xs" variant="light" color="red" onClick={() => void swaps.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else if (swaps.data.items.length === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="shift-swaps-empty">
        {SHIFT_SWAP_MSG.noSwaps}
      </Text>
    );
  } else {
    body = (
      <Stack gap={6}>
        {swaps.data.items.map((s) => {
          const mine = s.requester.id === me.user.id;
          const waitingOnAdmin = s.status === 'pending' && s.currentLevel > 0;
          return (
            <Group key={s.requestId} gap="xs" wrap="nowrap" align="flex-start" data-testid="shift-swap" data-status={s.status}>
              <Stack gap={0} className="min-w-0 grow">
                <Group gap={6} wrap="wrap">
                  <Text size="sm" fw={600} className="wrap-anywhere">
                    {mine ? `You asked ${s.taker.name}` : `${s.requester.name} asks you`}
                  </Text>
                  <Badge size="sm" variant="light" color={STATUS_COLOR[s.status]}>
                    {waitingOnAdmin ? 'awaiting admin' : s.status}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed" className="wrap-anywhere">
                  {s.scheduleName} ({s.role}) · {formatRange(s.startsAt, s.endsAt)}
                </Text>
                {s.note && (
                  <Text size="xs" c="dimmed" className="wrap-anywhere">
                    {s.note}
                  </Text>
                )}
              </Stack>
              <Group gap={4} className="no-shrink" wrap="nowrap">
                {s.can.approve && (
                  <Button size="compact-xs" color="green" loading={decide.isPending && decide.variables?.requestId === s.requestId} onClick={() => act({ requestId: s.requestId, action: 'approve' }, SHIFT_SWAP_MSG.accepted)}>
                    Accept
                  </Button>
                )}
                {s.can.reject && (
                  <Button size="compact-xs" variant="light" color="red" onClick={() => (setReason(''), decide.reset(), setDeclining(s))}>
                    Decline
                  </Button>
                )}
                {s.can.cancel && (
                  <Button size="compact-xs" variant="subtle" color="gray" onClick={() => act({ requestId: s.requestId, action: 'cancel' }, SHIFT_SWAP_MSG.cancelled)}>
                    Cancel request
                  </Button>
                )}
              </Group>
            </Group>
          );
        })}
      </Stack>
    );
  }

  return (
    <Stack gap="xs" data-testid="shift-swaps">
      <Text fw={600} size="sm">
        Shift swaps
      </Text>
      {body}
      {decide.isError && !declining && <FailureAlert title={SHIFT_SWAP_MSG.decideFailed} error={decide.error} />}
      <Modal opened={!!declining} onClose={() => setDeclining(null)} title="Decline shift swap" centered>
        <Stack>
          <Text size="sm">{declining ? `${declining.requester.name} is told you declined, with your reason.` : ''}</Text>
          <Textarea label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} placeholder="I am away that day" autosize minRows={2} maxLength={2000} data-testid="decline-reason" />
          {decide.isError && <FailureAlert title={SHIFT_SWAP_MSG.decideFailed} error={decide.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeclining(null)}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={decide.isPending}
              onClick={() => declining && act({ requestId: declining.requestId, action: 'reject', reason: reason.trim() || SHIFT_SWAP_MSG.declineReason }, SHIFT_SWAP_MSG.declined)}
            >
              Decline
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
