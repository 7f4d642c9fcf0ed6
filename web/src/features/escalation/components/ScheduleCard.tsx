import { ActionIcon, Alert, Badge, Box, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCalendarEvent, IconEdit, IconTrash, IconUserExclamation } from '@tabler/icons-react';
import { SCHEDULE_MSG, WEEKDAYS, WEEKDAY_KEYS, formatHour, weeklyGaps, type OnCallNow, type Schedule } from '../../../../../contract/schedules.ts';
import { browserTimeZone, formatCalendarDate, formatInZone } from './ScheduleTimes.ts';
import { ScheduleTimeline } from './ScheduleTimeline.tsx';

export interface ScheduleCardProps {
  tenantId: string;
  schedule: Schedule;
  onCall: OnCallNow | undefined;
  /** The member's name, or 'Unknown User' for someone no longer in the tenant. */
  userName: (id: string) => string;
  isMember: (id: string) => boolean;
  timelineOpen: boolean;
  onToggleTimeline: () => void;
  /** Absent for members who may only read (no edit or delete buttons). */
  onEdit?: () => void;
  onDelete?: () => void;
}

function OnCallNowBox({ onCall, userName, timeZone }: { onCall: OnCallNow | undefined; userName: (id: string) => string; timeZone: string }) {
  if (!onCall) return null;
  const next = onCall.next;
  return (
    <Paper withBorder radius="sm" p="sm" bg="var(--mantine-color-default-hover)" data-testid="on-call-now">
      <Group justify="space-between" align="flex-start" gap="xs">
        <Stack gap={2} className="min-w-0">
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            On call now
          </Text>
          {onCall.primary ? (
            <Text fw={600} className="wrap-anywhere" data-testid="on-call-primary">
              {userName(onCall.primary)}
              {onCall.secondary && (
                <Text span c="dimmed" fw={400} size="sm">
                  {' '}
                  · backup {userName(onCall.secondary)}
                </Text>
              )}
            </Text>
          ) : (
            <Text fw={600} c="red" data-testid="on-call-primary">
              {SCHEDULE_MSG.nobodyOnCall}
            </Text>
          )}
        </Stack>
        {next && (
          <Stack gap={2} className="min-w-0">
            <Text size="xs" tt="uppercase" fw={700} c="dimmed">
              Next handover
            </Text>
            <Text size="sm" className="wrap-anywhere" data-testid="next-handover">
              {formatInZone(next.at, timeZone)} → {next.primary ? userName(next.primary) : SCHEDULE_MSG.nobodyOnCall}
            </Text>
            {/* The schedule's zone first (its shifts are written in it); the viewer's own time beside it when it differs. */}
            {formatInZone(next.at, timeZone) !== formatInZone(next.at, browserTimeZone()) && (
              <Text size="xs" c="dimmed" data-testid="next-handover-local">
                your time: {formatInZone(next.at, browserTimeZone())}
              </Text>
            )}
          </Stack>
        )}
      </Group>
    </Paper>
  );
}

const UNIT = { hours: ['hour', 'hours'], days: ['day', 'days'], weeks: ['week', 'weeks'] } as const;
const dayNames = (days: number[]) =>
  days.join(',') === '1,2,3,4,5' ? 'Mon–Fri' : days.join(',') === '0,6' ? 'Sat–Sun' : days.map((d) => WEEKDAYS[d].slice(0, 3)).join(', ');

/** The schedule's rotation layers, highest first: who takes turns, how often, and when the layer applies. */
function LayersSummary({ schedule, userName, isMember }: Pick<ScheduleCardProps, 'schedule' | 'userName' | 'isMember'>) {
  return (
    <Stack gap={6} data-testid="schedule-layers">
      {[...schedule.layers].reverse().map((l, i) => (
        <Box key={i}>
          <Text size="sm" fw={600} className="wrap-anywhere">
            {l.name}{' '}
            <Text span size="sm" c="dimmed" fw={400}>
              · every {l.shiftLength.count === 1 ? UNIT[l.shiftLength.unit][0] : `${l.shiftLength.count} ${UNIT[l.shiftLength.unit][1]}`} from {formatInZone(l.start, schedule.timeZone)}
              {l.restrictions.length > 0 && ` · ${l.restrictions.map((r) => `${dayNames(r.days)} ${r.from}–${r.to}`).join(', ')}`}
            </Text>
          </Text>
          <Text size="sm" className="wrap-anywhere">
            {l.participants.map((p, j) => (
              <Text key={j} span c={isMember(p) ? undefined : 'red'}>
                {j > 0 && ' → '}
                {userName(p)}
              </Text>
            ))}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}

/** One schedule as spec section 2 shows it (name, description, dates, each weekday's shifts), plus who is on call. */
export function ScheduleCard({ tenantId, schedule, onCall, userName, isMember, timelineOpen, onToggleTimeline, onEdit, onDelete }: ScheduleCardProps) {
  const layered = schedule.layers.length > 0;
  // With layers, the weekly template's holes may be covered by them: the timeline shows the real gaps.
  const gaps = layered ? [] : weeklyGaps(schedule.rotations);
  const people = [
    ...WEEKDAY_KEYS.flatMap((k) => schedule.rotations[k].flatMap((s) => [s.primaryOnCall, s.secondaryOnCall])),
    ...schedule.layers.flatMap((l) => l.participants),
  ].filter((x): x is string => !!x);
  const templateDays = WEEKDAY_KEYS.map((k, i) => [k, i] as const).filter(([k]) => !layered || schedule.rotations[k].length > 0);
  const unknown = people.some((id) => !isMember(id));
  return (
    <Paper withBorder radius="md" p="md" data-testid="schedule-card">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Stack gap={2} className="min-w-0">
            <Group gap="xs">
              <Title order={2} size="h4" className="wrap-anywhere" data-testid="schedule-name">
                {schedule.name}
              </Title>
              {schedule.isDefault && (
                <Badge color="blue" variant="light">
                  Default
                </Badge>
              )}
            </Group>
            {schedule.description && (
              <Text size="sm" c="dimmed" className="pre-wrap">
                {schedule.description}
              </Text>
            )}
          </Stack>
          {onEdit && onDelete && (
          <Group gap={4} wrap="nowrap" className="no-shrink">
            <Tooltip label="Edit schedule">
              <ActionIcon variant="subtle" aria-label={`Edit ${schedule.name}`} onClick={onEdit}>
                <IconEdit size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete schedule">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${schedule.name}`} onClick={onDelete}>
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
          )}
        </Group>

        <Text size="sm">
          <Text span fw={600}>
            {formatCalendarDate(schedule.startTime)} – {schedule.endTime ? formatCalendarDate(schedule.endTime) : SCHEDULE_MSG.noEnd.toLowerCase()}
          </Text>
          <Text span c="dimmed">
            {' '}
            · hours in {schedule.timeZone}
          </Text>
        </Text>

        <OnCallNowBox onCall={onCall} userName={userName} timeZone={schedule.timeZone} />

        {unknown && (
          <Alert color="yellow" icon={<IconUserExclamation size={18} />} p="xs" data-testid="unknown-people-warning">
            <Text size="sm">{SCHEDULE_MSG.unknownPeopleWarning}</Text>
          </Alert>
        )}
        {gaps.length > 0 && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} p="xs" data-testid="coverage-gaps">
            <Stack gap={0}>
              {gaps.map((g) => (
                <Text key={g} size="sm">
                  {g}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}

        {layered && <LayersSummary schedule={schedule} userName={userName} isMember={isMember} />}

        <Stack gap={6} data-testid="weekly-shifts">
          {templateDays.map(([k, i]) => (
            <Group key={k} gap="xs" align="flex-start" wrap="nowrap">
              <Text size="sm" fw={600} w={92} className="no-shrink">
                {WEEKDAYS[i]}
              </Text>
              <Stack gap={2} className="min-w-0">
                {schedule.rotations[k].map((s) => (
                  <Text key={`${s.startHour}-${s.endHour}`} size="sm" className="wrap-anywhere">
                    <Text span c="dimmed" className="nowrap">
                      {formatHour(s.startHour)} – {formatHour(s.endHour)}
                    </Text>{' '}
                    <Text span fw={500} c={isMember(s.primaryOnCall) ? undefined : 'red'}>
                      {userName(s.primaryOnCall)}
                    </Text>
                    {s.secondaryOnCall && (
                      <Text span c={isMember(s.secondaryOnCall) ? 'dimmed' : 'red'}>
                        {' '}
                        (backup {userName(s.secondaryOnCall)})
                      </Text>
                    )}
                  </Text>
                ))}
              </Stack>
            </Group>
          ))}
        </Stack>

        <Box>
          <Button variant="light" size="xs" leftSection={<IconCalendarEvent size={16} />} onClick={onToggleTimeline} aria-expanded={timelineOpen}>
            {timelineOpen ? 'Hide timeline and overrides' : 'Timeline and overrides'}
          </Button>
        </Box>
        {timelineOpen && <ScheduleTimeline tenantId={tenantId} schedule={schedule} userName={userName} />}
      </Stack>
    </Paper>
  );
}
