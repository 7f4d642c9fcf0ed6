import { ActionIcon, Badge, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconDots, IconPencil, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { MAINTENANCE_MSG, MAINTENANCE_STATE_LABELS, type MaintenanceState, type MaintenanceWindow } from '../../../../../contract/maintenance.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { describeScope, describeWhen } from './maintenance-text.ts';

const STATE_COLORS: Record<MaintenanceState, string> = { active: 'grape', scheduled: 'blue', ended: 'gray' };

export function MaintenanceStateBadge({ state }: { state: MaintenanceState }) {
  return (
    <Badge color={STATE_COLORS[state]} variant={state === 'active' ? 'filled' : 'light'} size="sm" data-testid="maintenance-state">
      {MAINTENANCE_STATE_LABELS[state]}
    </Badge>
  );
}

/** One window: its state, when it is on, what it covers; the actions for those who may change it. */
export function MaintenanceWindowCard({
  window: w,
  clients,
  integrations,
  canManage,
  onEdit,
  onEnd,
  onDelete,
}: {
  window: MaintenanceWindow;
  clients: Map<string, string>;
  integrations: Map<string, string>;
  canManage: boolean;
  onEdit: () => void;
  onEnd: () => void;
  onDelete: () => void;
}) {
  return (
    <Paper withBorder p="md" radius="md" data-testid="maintenance-window">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} className="min-w-0">
          <Group gap="xs" wrap="wrap">
            <Text fw={600} className="wrap-anywhere" data-testid="maintenance-window-name">
              {w.name}
            </Text>
            <MaintenanceStateBadge state={w.state} />
          </Group>
          <Text size="sm">{describeWhen(w)}</Text>
          {w.state === 'active' && w.activeUntil && (
            <Text size="sm" c="grape" fw={500}>
              {MAINTENANCE_MSG.activeUntil(formatDateTime(w.activeUntil))}
            </Text>
          )}
          {w.state !== 'active' && w.nextStart && w.recurrence && (
            <Text size="sm" c="dimmed">
              {MAINTENANCE_MSG.nextWindow(formatDateTime(w.nextStart))}
            </Text>
          )}
          <Text size="sm" c="dimmed" className="wrap-anywhere">
            {describeScope(w, clients, integrations)}
          </Text>
        </Stack>
        {canManage && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${w.name}`} data-testid="maintenance-actions">
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
                Edit
              </Menu.Item>
              {w.state === 'active' && (
                <Menu.Item leftSection={<IconPlayerStop size={16} />} onClick={onEnd} data-testid="maintenance-end-now">
                  End now
                </Menu.Item>
              )}
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Paper>
  );
}
