import { useState } from 'react';
import { Button, Group, NativeSelect, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SHIFT_SWAP_LIMITS, SHIFT_SWAP_MSG } from '../../../../../contract/shift-swaps.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';
import { usePagerOptions, useSavePagerSetting, useTakePager } from '../api/shift-swaps.ts';

const DEFAULT_HOURS = 4;

/**
 * "Take the pager now": a member who is not on call becomes the primary of a schedule from now for a few hours (the
 * person replaced is told). Owners and admins also choose whether only the schedule's participants may.
 */
export function TakePagerSection({ tenantId }: { tenantId: string }) {
  const options = usePagerOptions(tenantId);
  const take = useTakePager(tenantId);
  const save = useSavePagerSetting(tenantId);
  const [picked, setPicked] = useState('');
  const [hours, setHours] = useState<number | string>(DEFAULT_HOURS);
  const items = options.data?.items ?? [];
  if (!options.isSuccess || items.length === 0) return null;
  const scheduleId = picked || (items.find((o) => o.mayTake) ?? items[0]!).scheduleId;
  const option = items.find((o) => o.scheduleId === scheduleId)!;
  const hoursError = serverFieldErrors(take.error).hours;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    take.mutate(
      { scheduleId, hours: Number(hours) },
      { onSuccess: () => notifications.show({ color: 'green', message: SHIFT_SWAP_MSG.pagerTaken(option.scheduleName) }) },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="take-pager">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Take the pager now
        </Text>
        <Text size="sm" c="dimmed">
          Not on call but want to be? Take over from whoever is on call now, for a few hours. They are told.
        </Text>
        <Group gap="xs" align="flex-start" wrap="wrap">
          <NativeSelect
            label="Schedule"
            value={scheduleId}
            onChange={(e) => {
              setPicked(e.currentTarget.value);
              take.reset();
            }}
            data={items.map((o) => ({ value: o.scheduleId, label: o.scheduleName }))}
            className="grow"
            data-testid="take-pager-schedule"
          />
          <NumberInput
            label="Hours"
            value={hours}
            onChange={setHours}
            min={1}
            max={SHIFT_SWAP_LIMITS.maxPagerHours}
            allowDecimal={false}
            w={110}
            error={hoursError}
            data-testid="take-pager-hours"
          />
        </Group>
        {!option.mayTake && option.reason && (
          <Text size="sm" c="dimmed" data-testid="take-pager-reason">
            {option.reason}
          </Text>
        )}
        {take.isError && !hoursError && <FailureAlert title={SHIFT_SWAP_MSG.takeFailed} error={take.error} />}
        <Group justify="space-between" gap="xs">
          {options.data.canManage ? (
            <Switch
              size="sm"
              label="Only participants of this schedule may take its pager"
              checked={option.participantsOnly}
              disabled={save.isPending}
              onChange={(e) =>
                save.mutate({ scheduleId, participantsOnly: e.currentTarget.checked }, { onSuccess: () => notifications.show({ color: 'green', message: SHIFT_SWAP_MSG.settingSaved }) })
              }
              data-testid="take-pager-participants-only"
            />
          ) : (
            <span />
          )}
          <Button type="submit" loading={take.isPending} disabled={!option.mayTake}>
            Take the pager
          </Button>
        </Group>
        {save.isError && <FailureAlert title={SHIFT_SWAP_MSG.settingFailed} error={save.error} />}
      </Stack>
    </form>
  );
}
