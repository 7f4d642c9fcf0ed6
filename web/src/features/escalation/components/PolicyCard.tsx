import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import { CHANNEL_LABELS, ESCALATION_MSG, LEVELS, NOTIFY_LABELS, type EscalationPolicy, type LevelKey } from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { destinationLabel, useLevelDestinations } from '../api/level-destinations.ts';

const PRIORITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const LEVEL_LABELS: Record<LevelKey, string> = { level_1: 'Level 1', level_2: 'Level 2', level_3: 'Level 3' };

/** Names for ids: the person's (or schedule's) name, or the spec's 'Unknown User' for an id no longer known. */
export type NameOf = (id: string) => string;

/**
 * One policy as spec section 2 shows it: name, Default badge, description, the escalation time of each priority in
 * minutes, the three levels with the names of the people they page, and Edit and Delete.
 */
export function PolicyCard({ policy, userName, scheduleName, onEdit, onDelete }: { policy: EscalationPolicy; userName: NameOf; scheduleName: NameOf; onEdit: () => void; onDelete: () => void }) {
  const postsTo = useLevelPosts(policy);
  return (
    <Paper withBorder p="md" radius="md" data-testid="policy-card">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Group gap={8} className="min-w-0">
            <Title order={2} size="h4" className="wrap-anywhere" data-testid="policy-name">
              {policy.name}
            </Title>
            {policy.isDefault && (
              <Badge color="blue" variant="filled" data-testid="policy-default-badge">
                {ESCALATION_MSG.defaultBadge}
              </Badge>
            )}
          </Group>
          <Group gap={6} wrap="nowrap" className="no-shrink">
            <Button size="xs" variant="default" leftSection={<IconEdit size={14} />} onClick={onEdit} aria-label={`Edit ${policy.name}`}>
              Edit
            </Button>
            <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete} aria-label={`Delete ${policy.name}`}>
              Delete
            </Button>
          </Group>
        </Group>
        {policy.description && (
          <Text size="sm" c="dimmed" className="wrap-anywhere">
            {policy.description}
          </Text>
        )}

        <div>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
            Escalation times (minutes)
          </Text>
          <SimpleGrid cols={{ base: 3, xs: 5 }} spacing={6} verticalSpacing={6} data-testid="policy-times">
            {PRIORITIES.map((p) => {
              const minutes = policy.escalationTimes[p];
              return (
                <Paper key={p} withBorder radius="sm" px={8} py={4} bg="var(--mantine-color-default-hover)">
                  <Text size="xs" c="dimmed">
                    {PRIORITY_LABELS[p]}
                  </Text>
                  <Text size="sm" fw={600} data-testid={`policy-time-${p}`}>
                    {minutes ? `${minutes} min` : ESCALATION_MSG.noTarget}
                  </Text>
                </Paper>
              );
            })}
          </SimpleGrid>
        </div>

        <Stack gap={6}>
          {LEVELS.map((level) => {
            const l = policy[level];
            const when = level === 'level_1' ? 'when the alert opens' : `${'timeAfterPrevious' in l ? l.timeAfterPrevious : 0} min after ${level === 'level_2' ? 'Level 1' : 'Level 2'}`;
            return (
              <Paper key={level} withBorder radius="sm" p="xs" data-testid={`policy-${level}`}>
                <Group justify="space-between" gap={6} align="baseline">
                  <Text size="sm" fw={700}>
                    {LEVEL_LABELS[level]}{' '}
                    <Text span size="xs" c="dimmed" fw={400}>
                      {when}
                    </Text>
                  </Text>
                  <Group gap={4}>
                    {l.notificationChannels.map((c) => (
                      <Badge key={c} size="xs" variant="light" color="gray">
                        {CHANNEL_LABELS[c]}
                      </Badge>
                    ))}
                  </Group>
                </Group>
                {/* A level of schedules only is not unassigned: it pages whoever is on call. */}
                {(l.userIds.length > 0 || l.scheduleIds.length === 0) && (
                  <Text size="sm" className="wrap-anywhere" data-testid="policy-level-users" c={l.userIds.length ? undefined : 'dimmed'}>
                    {l.userIds.length ? l.userIds.map(userName).join(', ') : MSG.noUsersAssigned}
                  </Text>
                )}
                {l.scheduleIds.length > 0 && (
                  <Text size={l.userIds.length ? 'xs' : 'sm'} c={l.userIds.length ? 'dimmed' : undefined} className="wrap-anywhere" data-testid="policy-level-schedules">
                    On call from: {l.scheduleIds.map(scheduleName).join(', ')} ({NOTIFY_LABELS[l.notify ?? 'primary'].toLowerCase()})
                  </Text>
                )}
                {postsTo(level) && (
                  <Text size="xs" c="dimmed" className="wrap-anywhere" data-testid="policy-level-destinations">
                    Also posts to: {postsTo(level)}
                  </Text>
                )}
              </Paper>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * What each level also posts to (issue 29), by name for those who manage destinations, else how many; a destination
 * deleted since is left out (the level skips it).
 */
function useLevelPosts(policy: EscalationPolicy) {
  const { tenant } = useCurrentTenant();
  const named = LEVELS.some((l) => (policy[l].destinationIds ?? []).length > 0);
  const { data } = useLevelDestinations(tenant?.id ?? policy.tenantId, named);
  return (level: LevelKey): string | null => {
    const ids = policy[level].destinationIds ?? [];
    if (ids.length === 0) return null;
    if (!data) return ids.length === 1 ? '1 destination' : `${ids.length} destinations`;
    const names = ids.flatMap((id) => data.filter((d) => d.id === id).map(destinationLabel));
    return names.length ? names.join(', ') : null;
  };
}
