import { useState } from 'react';
import { Button, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowForwardUp, IconBan, IconCheck, IconX } from '@tabler/icons-react';
import { APPROVAL_LIMITS, APPROVAL_MSG, type ApprovalRequest } from '../../../../../contract/approvals.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { ApiError } from '../../../lib/api.ts';
import { memberLabel, useMemberChoices } from '../../../lib/member-choices.ts';
import { useSignedInMe } from '../../../lib/session.tsx';
import { useApprovalAction, type ApprovalAction } from '../api/approval-actions.ts';

export type DecisionMode = 'approve' | 'reject' | 'delegate' | 'cancel';

const FAILED: Record<DecisionMode, string> = {
  approve: APPROVAL_MSG.approveFailed,
  reject: APPROVAL_MSG.rejectFailed,
  delegate: APPROVAL_MSG.delegateFailed,
  cancel: APPROVAL_MSG.cancelFailed,
};
const DONE: Record<DecisionMode, string> = { approve: APPROVAL_MSG.approved, reject: APPROVAL_MSG.rejected, delegate: APPROVAL_MSG.delegated, cancel: APPROVAL_MSG.cancelled };

/**
 * What the viewer may do with a pending request (the server's `can`): Approve with an optional comment, Reject with a
 * required reason, Delegate to another member, Cancel Request for its creator. Each opens its own small form.
 */
export function RequestDecision({ tenantId, request, initialMode, onNoLongerPending }: { tenantId: string; request: ApprovalRequest; initialMode: DecisionMode | null; onNoLongerPending: (message: string) => void }) {
  const me = useSignedInMe();
  const can = request.can;
  const allowed = (m: DecisionMode | null): m is DecisionMode => !!m && can[m];
  const [mode, setMode] = useState<DecisionMode | null>(allowed(initialMode) ? initialMode : null);
  const [comment, setComment] = useState('');
  const [reason, setReason] = useState('');
  const [delegateTo, setDelegateTo] = useState<string | null>(null);
  const act = useApprovalAction(tenantId);
  const members = useMemberChoices(tenantId, { enabled: can.delegate });

  if (!can.approve && !can.reject && !can.delegate && !can.cancel) return null;

  const choose = (m: DecisionMode | null) => {
    act.reset();
    setMode(m);
  };
  const run = (a: ApprovalAction) =>
    act.mutate(
      { requestId: request.id, ...a },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: DONE[a.action] });
          setMode(null);
          setComment('');
          setReason('');
          setDelegateTo(null);
        },
        onError: (err) => {
          // Decided or moved on meanwhile: the server says which (APPROVAL_MSG.notPending or movedOn); the request reloads.
          if (err instanceof ApiError && err.status === 409) {
            setMode(null);
            onNoLongerPending(err.message || APPROVAL_MSG.notPending);
          }
        },
      },
    );
  const failure = act.error && !(act.error instanceof ApiError && act.error.status === 409) && mode ? <FailureAlert title={FAILED[mode]} error={act.error} /> : null;
  const back = (
    <Button variant="default" onClick={() => choose(null)} disabled={act.isPending}>
      Back
    </Button>
  );

  return (
    <Paper withBorder radius="md" p="sm" data-testid="request-decision">
      {mode === null && (
        <Group gap="sm">
          {can.approve && (
            <Button color="green" leftSection={<IconCheck size={16} />} onClick={() => choose('approve')}>
              Approve
            </Button>
          )}
          {can.reject && (
            <Button color="red" variant="light" leftSection={<IconX size={16} />} onClick={() => choose('reject')}>
              Reject
            </Button>
          )}
          {can.delegate && (
            <Button variant="default" leftSection={<IconArrowForwardUp size={16} />} onClick={() => choose('delegate')}>
              Delegate
            </Button>
          )}
          {can.cancel && (
            <Button variant="default" color="red" leftSection={<IconBan size={16} />} onClick={() => choose('cancel')}>
              Cancel Request
            </Button>
          )}
        </Group>
      )}

      {mode === 'approve' && (
        <Stack gap="sm">
          <Textarea
            label="Comment"
            description="Optional: the requester and the next approvers see it"
            autosize
            minRows={2}
            maxRows={6}
            maxLength={APPROVAL_LIMITS.comment}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            autoFocus
          />
          {failure}
          <Group justify="flex-end">
            {back}
            <Button color="green" leftSection={<IconCheck size={16} />} loading={act.isPending} onClick={() => run({ action: 'approve', comment })}>
              Confirm Approval
            </Button>
          </Group>
        </Stack>
      )}

      {mode === 'reject' && (
        <Stack gap="sm">
          <Textarea
            label="Reason"
            withAsterisk
            description="Required: tell the requester why"
            autosize
            minRows={2}
            maxRows={6}
            maxLength={APPROVAL_LIMITS.comment}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            autoFocus
          />
          {failure}
          <Group justify="flex-end">
            {back}
            <Button color="red" leftSection={<IconX size={16} />} loading={act.isPending} disabled={!reason.trim()} onClick={() => run({ action: 'reject', reason: reason.trim() })}>
              Confirm Rejection
            </Button>
          </Group>
        </Stack>
      )}

      {mode === 'delegate' && (
        <Stack gap="sm">
          <Select
            label="Delegate to"
            description="They decide this level in your place"
            placeholder={members.isPending ? 'Loading...' : 'Choose a member'}
            data={(members.data ?? []).filter((m) => m.id !== me.user.id).map((m) => ({ value: m.id, label: m.displayName === m.email ? m.email : `${memberLabel(m)} (${m.email})` }))}
            value={delegateTo}
            onChange={setDelegateTo}
            searchable
            nothingFoundMessage="No member matches"
            comboboxProps={{ withinPortal: true }}
            error={members.isError ? 'Failed to load members' : undefined}
          />
          {failure}
          <Group justify="flex-end">
            {back}
            <Button leftSection={<IconArrowForwardUp size={16} />} loading={act.isPending} disabled={!delegateTo} onClick={() => delegateTo && run({ action: 'delegate', userId: delegateTo })}>
              Delegate Request
            </Button>
          </Group>
        </Stack>
      )}

      {mode === 'cancel' && (
        <Stack gap="sm">
          <Text size="sm">Cancel this request? Its approvers will no longer be asked to decide, and it cannot be reopened.</Text>
          {failure}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => choose(null)} disabled={act.isPending}>
              Keep Request
            </Button>
            <Button color="red" leftSection={<IconBan size={16} />} loading={act.isPending} onClick={() => run({ action: 'cancel' })}>
              Cancel Request
            </Button>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
