import { useState } from 'react';
import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SCHEDULE_MSG, type MyShift } from '../../../../../contract/schedules.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { useSignedInMe } from '../../../lib/session.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';
import { useColleagues, useHandOver } from '../api/my-oncall.ts';

/** Asks a colleague to cover one of my shifts (from now if it has begun): an override the replaced person may add. */
export function MyShiftHandOverModal({ tenantId, shift, onClose }: { tenantId: string; shift: MyShift | null; onClose: () => void }) {
  const me = useSignedInMe();
  const colleagues = useColleagues(tenantId, !!shift);
  const handOver = useHandOver(tenantId);
  const [userId, setUserId] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setUserId('');
    setNote('');
    setError(null);
    handOver.reset();
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!shift) return;
    if (!userId) return setError(SCHEDULE_MSG.overrideUserRequired);
    const startsAt = new Date(Math.max(Date.parse(shift.start), Date.now())).toISOString();
    try {
      await handOver.mutateAsync({ scheduleId: shift.scheduleId, body: { replacedUserId: me.user.id, userId, startsAt, endsAt: shift.end, note } });
      notifications.show({ color: 'green', message: SCHEDULE_MSG.overrideCreated });
      close();
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (fields.userId) setError(fields.userId);
    }
  };
  const others = (colleagues.data ?? []).filter((m) => m.userId !== me.user.id);
  return (
    <Modal opened={!!shift} onClose={close} title="Find cover" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {shift ? `${shift.scheduleName}: someone else takes your place as ${shift.role} for this shift.` : ''}
          </Text>
          <NativeSelect
            label="Covered by"
            value={userId}
            onChange={(e) => {
              setUserId(e.currentTarget.value);
              setError(null);
            }}
            data={[{ value: '', label: colleagues.isPending ? 'Loading...' : 'Choose a colleague' }, ...others.map((m) => ({ value: m.userId, label: m.displayName }))]}
            error={error}
          />
          <TextInput label="Note" placeholder="Vacation, sick swap…" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={200} />
          {handOver.isError && !Object.keys(serverFieldErrors(handOver.error)).length && <FailureAlert title={SCHEDULE_MSG.overrideCreateFailed} error={handOver.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={handOver.isPending}>
              Hand over
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
