import { useState } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarEvent, IconCheck, IconCopy } from '@tabler/icons-react';
import { CALENDAR_FEED_MSG, MSG } from '../../../../../contract/messages.ts';
import { SCHEDULE_MSG, type CalendarFeedCreated, type MyShift } from '../../../../../contract/schedules.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { useCreateCalendarFeed, useMyOnCall, useRevokeCalendarFeed } from '../api/my-oncall.ts';
import { MyShiftHandOverModal } from './MyShiftHandOverModal.tsx';
import { formatRange } from './shift-range.ts';
import { ShiftSwapsSection } from './ShiftSwapsSection.tsx';
import { TakePagerSection } from './TakePagerSection.tsx';

const SHOWN = 8;

/** "My on-call": my next shifts across the tenant's schedules, and my personal calendar feed (a secret .ics URL). */
export function MyOnCallCard() {
  const { tenant } = useCurrentTenant();
  if (!tenant) return null;
  return <MyOnCall key={tenant.id} tenantId={tenant.id} tenantName={tenant.name} />;
}

function MyOnCall({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const mine = useMyOnCall(tenantId);
  const create = useCreateCalendarFeed(tenantId);
  const revoke = useRevokeCalendarFeed(tenantId);
  const [made, setMade] = useState<CalendarFeedCreated | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [handing, setHanding] = useState<MyShift | null>(null);
  const [confirmingRenew, setConfirmingRenew] = useState(false);

  const makeLink = (renewing: boolean) =>
    create.mutate(undefined, {
      onSuccess: (r) => {
        setMade(r);
        setConfirmingRenew(false);
        if (renewing) notifications.show({ color: 'green', message: CALENDAR_FEED_MSG.renewed });
      },
    });

  const header = (
    <Group gap="sm" wrap="nowrap">
      <IconCalendarEvent size={22} className="no-shrink" />
      <div className="min-w-0">
        <Title order={2} size="h4">My on-call</Title>
        <Text size="sm" c="dimmed" className="wrap-anywhere">
          Your shifts in {tenantName} over the next 90 days, overrides included. Times are in your time zone.
        </Text>
      </div>
    </Group>
  );

  let body;
  if (mine.isPending) {
    body = (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {MSG.loading}
        </Text>
      </Group>
    );
  } else if (mine.isError) {
    body = (
      <Alert color="red" title={SCHEDULE_MSG.myOnCallLoadFailed}>
        <Button size="xs" variant="light" color="red" onClick={() => void mine.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else {
    const shifts = showAll ? mine.data.shifts : mine.data.shifts.slice(0, SHOWN);
    body = (
      <Stack gap="md">
        {mine.data.shifts.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="my-oncall-empty">
            {SCHEDULE_MSG.noUpcomingShifts}
          </Text>
        ) : (
          <Stack gap={6} data-testid="my-shifts">
            {shifts.map((s) => (
              <Group key={`${s.scheduleId}-${s.role}-${s.start}`} gap="xs" wrap="nowrap" align="flex-start" data-testid="my-shift">
                <Stack gap={0} className="min-w-0 grow">
                  <Group gap={6} wrap="wrap">
                    <Text size="sm" fw={600} className="wrap-anywhere">
                      {s.scheduleName}
                    </Text>
                    <Badge size="sm" variant="light" color={s.role === 'primary' ? 'blue' : 'gray'}>
                      {s.role}
                    </Badge>
                    {s.override && (
                      <Badge size="sm" variant="light" color="violet">
                        override
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {formatRange(s.start, s.end)}
                  </Text>
                </Stack>
                <Button size="compact-xs" variant="subtle" className="no-shrink" onClick={() => setHanding(s)}>
                  Find cover
                </Button>
              </Group>
            ))}
            {mine.data.shifts.length > SHOWN && (
              <Button variant="subtle" size="compact-sm" onClick={() => setShowAll((v) => !v)} w="fit-content">
                {showAll ? 'Show fewer' : `Show all ${mine.data.shifts.length}`}
              </Button>
            )}
          </Stack>
        )}

        <ShiftSwapsSection tenantId={tenantId} />
        <TakePagerSection tenantId={tenantId} />

        <Stack gap="xs">
          <Text fw={600} size="sm">
            Calendar feed
          </Text>
          <Text size="sm" c="dimmed">
            Subscribe to your shifts from Google Calendar, Outlook or Apple Calendar. The link is secret: anyone with it sees your shifts. Renew it to replace the link, revoke it to stop it.
          </Text>
          {made ? (
            <Stack gap={6}>
              <Text size="sm">Copy this link now; it is shown only once.</Text>
              <Group gap="xs" wrap="nowrap">
                <TextInput value={made.url} readOnly className="grow" aria-label="Calendar feed link" data-testid="feed-url" onFocus={(e) => e.currentTarget.select()} />
                <CopyButton value={made.url}>
                  {({ copied, copy }) => (
                    <Button variant="light" onClick={copy} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} className="no-shrink">
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          ) : mine.data.feed ? (
            <Text size="sm" data-testid="feed-status">
              A calendar link is active since {formatDateTime(mine.data.feed.createdAt)}.
            </Text>
          ) : null}
          <Group gap="xs">
            <Button
              size="sm"
              variant={mine.data.feed ? 'default' : 'filled'}
              loading={create.isPending && !confirmingRenew}
              // Renewing breaks the link calendars are subscribed to: ask first.
              onClick={() => (mine.data.feed ? setConfirmingRenew(true) : makeLink(false))}
            >
              {mine.data.feed ? 'Renew link' : 'Create calendar link'}
            </Button>
            {mine.data.feed && (
              <Button
                size="sm"
                variant="subtle"
                color="red"
                loading={revoke.isPending}
                onClick={() =>
                  revoke.mutate(undefined, {
                    onSuccess: () => {
                      setMade(null);
                      notifications.show({ color: 'green', message: SCHEDULE_MSG.feedRevoked });
                    },
                  })
                }
              >
                Revoke link
              </Button>
            )}
          </Group>
          {create.isError && !confirmingRenew && <FailureAlert title={SCHEDULE_MSG.feedCreateFailed} error={create.error} />}
          {revoke.isError && <FailureAlert title={SCHEDULE_MSG.feedRevokeFailed} error={revoke.error} />}
        </Stack>
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="md" p="lg" data-testid="my-oncall">
      <Stack maw={640}>
        {header}
        {body}
      </Stack>
      <MyShiftHandOverModal tenantId={tenantId} shift={handing} onClose={() => setHanding(null)} />
      <ConfirmModal
        opened={confirmingRenew}
        title={CALENDAR_FEED_MSG.renewTitle}
        confirmLabel={CALENDAR_FEED_MSG.renewConfirm}
        cancelLabel={CALENDAR_FEED_MSG.renewKeep}
        loading={create.isPending}
        cancelDisabled={create.isPending}
        onConfirm={() => makeLink(true)}
        onClose={() => {
          // Not while renewing: the answer holds the new link, shown only once.
          if (create.isPending) return;
          create.reset();
          setConfirmingRenew(false);
        }}
        failure={{ title: SCHEDULE_MSG.feedCreateFailed, error: create.error }}
        data-testid="renew-feed-confirm"
      >
        <Text size="sm">{CALENDAR_FEED_MSG.renewQuestion}</Text>
      </ConfirmModal>
    </Paper>
  );
}
