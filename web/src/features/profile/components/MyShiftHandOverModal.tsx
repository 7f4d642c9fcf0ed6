import { useState } from 'react';
import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SCHEDULE_MSG, type MyShift } from '../../../../../contract/schedules.ts';
import { SHIFT_SWAP_MSG } from '../../../../../contract/shift-swaps.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { useSignedInMe } from '../../../lib/session.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';
import { useColleagues, useHandOver } from '../api/my-oncall.ts';
import { useAskShiftSwap } from '../api/shift-swaps.ts';

/** A time as a `datetime-local` value in the viewer's zone. */
function localInput(ms: number) {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A `datetime-local` value (the viewer's zone) as an ISO time, or the raw text when unreadable (the server says why). */
const fromLocalInput = (value: string) => (Number.isNaN(new Date(value).getTime()) ? value : new Date(value).toISOString());

/**
 * Finds cover for one of my shifts, or part of it (from now if it has begun): asks a colleague to take it (a shift
 * swap through approvals: they accept, then an admin when the tenant's policy says so), or hands it over at once (an
 * override the replaced person may add).
 */
export function MyShiftHandOverModal({ tenantId, shift, onClose }: { tenantId: string; shift: MyShift | null; onClose: () => void }) {
  return shift ? <CoverForm key={`${shift.scheduleId}-${shift.start}`} tenantId={tenantId} shift={shift} onClose={onClose} /> : <Modal opened={false} onClose={onClose} title="Find cover" />;
}

function CoverForm({ tenantId, shift, onClose }: { tenantId: string; shift: MyShift; onClose: () => void }) {
  const me = useSignedInMe();
  const colleagues = useColleagues(tenantId, true);
  const handOver = useHandOver(tenantId);
  const ask = useAskShiftSwap(tenantId);
  const [userId, setUserId] = useState('');
  const [from, setFrom] = useState(() => localInput(Math.max(Date.parse(shift.start), Date.now())));
  const [until, setUntil] = useState(() => localInput(Date.parse(shift.end)));
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const close = () => {
    handOver.reset();
    ask.reset();
    onClose();
  };
  const others = (colleagues.data ?? []).filter((m) => m.userId !== me.user.id);
  const chosen = () => {
    if (userId) return true;
    setErrors({ userId: SCHEDULE_MSG.overrideUserRequired });
    return false;
  };
  // The form's times, or the shift's own end when it was left as it came (no rounding to the minute).
  const range = () => ({
    startsAt: from === localInput(Math.max(Date.parse(shift.start), Date.now())) ? new Date(Math.max(Date.parse(shift.start), Date.now())).toISOString() : fromLocalInput(from),
    endsAt: until === localInput(Date.parse(shift.end)) ? shift.end : fromLocalInput(until),
  });
  const askThem = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!chosen()) return;
    try {
      await ask.mutateAsync({ scheduleId: shift.scheduleId, takerId: userId, ...range(), note });
      notifications.show({ color: 'green', message: SHIFT_SWAP_MSG.requested(others.find((m) => m.userId === userId)?.displayName ?? '') });
      close();
    } catch (err) {
      const f = serverFieldErrors(err);
      setErrors({ userId: f.takerId ?? '', from: f.startsAt ?? '', until: f.endsAt ?? '' });
    }
  };
  const handOverNow = async () => {
    if (!chosen()) return;
    try {
      await handOver.mutateAsync({ scheduleId: shift.scheduleId, body: { replacedUserId: me.user.id, userId, ...range(), note } });
      notifications.show({ color: 'green', message: SCHEDULE_MSG.overrideCreated });
      close();
    } catch (err) {
      const f = serverFieldErrors(err);
      setErrors({ userId: f.userId ?? '', from: f.startsAt ?? '', until: f.endsAt ?? '' });
    }
  };
  const failed = (m: typeof ask | typeof handOver) => m.isError && !Object.values(serverFieldErrors(m.error)).length;
  return (
    <Modal opened onClose={close} title="Find cover" centered>
      <form onSubmit={askThem} noValidate>
        <Stack>
          <Text size="sm">
            {shift.scheduleName}: someone else takes your place as {shift.role} for this shift, or part of it. Ask them to take it (they accept, then an owner or admin
            if your organization asks for it), or hand it over at once.
          </Text>
          <NativeSelect
            label="Covered by"
            value={userId}
            onChange={(e) => {
              setUserId(e.currentTarget.value);
              setErrors({});
            }}
            data={[{ value: '', label: colleagues.isPending ? 'Loading...' : 'Choose a colleague' }, ...others.map((m) => ({ value: m.userId, label: m.displayName }))]}
            error={errors.userId || null}
            data-testid="cover-taker"
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput type="datetime-local" label="From" description="Your time zone" value={from} onChange={(e) => setFrom(e.currentTarget.value)} error={errors.from || null} data-testid="cover-from" />
            <TextInput type="datetime-local" label="Until" description="Your time zone" value={until} onChange={(e) => setUntil(e.currentTarget.value)} error={errors.until || null} data-testid="cover-until" />
          </SimpleGrid>
          <TextInput label="Note" placeholder="Vacation, sick swap…" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={200} />
          {failed(ask) && <FailureAlert title={SHIFT_SWAP_MSG.requestFailed} error={ask.error} />}
          {failed(handOver) && <FailureAlert title={SCHEDULE_MSG.overrideCreateFailed} error={handOver.error} />}
          <Group justify="flex-end" gap="xs">
            <Button variant="subtle" onClick={close}>
              Cancel
            </Button>
            <Button variant="default" onClick={() => void handOverNow()} loading={handOver.isPending} disabled={ask.isPending}>
              Hand over
            </Button>
            <Button type="submit" loading={ask.isPending} disabled={handOver.isPending}>
              Ask to take it
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
