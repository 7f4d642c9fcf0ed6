import { useState } from 'react';
import { Button, Group, Menu, Popover, Stack, TextInput } from '@mantine/core';
import { IconZzz, IconZzzOff } from '@tabler/icons-react';
import { SNOOZE_MINUTES, type SnoozeBody } from '../../../../../contract/alerts.ts';
import { SNOOZE_LABELS } from '../../../../../contract/maintenance.ts';

/** A `datetime-local` value (the viewer's zone) as an ISO time, or null when empty or unreadable. */
const isoOf = (value: string) => {
  const d = new Date(value);
  return value && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
};

/**
 * Snooze (issue 31): 30 minutes, 1 hour, 4 hours, or until a time chosen; Unsnooze when `snoozed`. Used by the alert
 * modal and by the bulk bar (`size` xs there).
 */
export function SnoozeMenu({ onSnooze, snoozed = false, loading, disabled, size = 'sm' }: { onSnooze: (body: SnoozeBody | null) => void; snoozed?: boolean; loading?: boolean; disabled?: boolean; size?: 'xs' | 'sm' }) {
  const [picking, setPicking] = useState(false);
  const [until, setUntil] = useState('');
  const chosen = isoOf(until);
  return (
    // No roles on the target: it is a plain wrapper of the menu (a div may not carry aria-expanded); the menu item opens it.
    <Popover opened={picking} onChange={setPicking} position="bottom-start" withinPortal trapFocus withRoles={false}>
      <Popover.Target>
        <div>
          <Menu position="bottom-start" withinPortal>
            <Menu.Target>
              <Button size={size} variant="light" color="cyan" leftSection={<IconZzz size={size === 'xs' ? 14 : 16} />} loading={loading} disabled={disabled} data-testid="snooze-menu">
                {SNOOZE_LABELS.menu}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {SNOOZE_MINUTES.map((m) => (
                <Menu.Item key={m} onClick={() => onSnooze({ minutes: m })} data-testid={`snooze-${m}`}>
                  {SNOOZE_LABELS.options[m]}
                </Menu.Item>
              ))}
              <Menu.Item onClick={() => setPicking(true)} data-testid="snooze-until">
                {SNOOZE_LABELS.untilTime}
              </Menu.Item>
              {snoozed && (
                <>
                  <Menu.Divider />
                  <Menu.Item leftSection={<IconZzzOff size={14} />} onClick={() => onSnooze(null)} data-testid="unsnooze">
                    {SNOOZE_LABELS.unsnooze}
                  </Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
        </div>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <TextInput type="datetime-local" label="Snooze until" value={until} onChange={(e) => setUntil(e.currentTarget.value)} data-testid="snooze-until-input" />
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={() => setPicking(false)}>
              Cancel
            </Button>
            <Button
              size="xs"
              disabled={!chosen}
              onClick={() => {
                if (!chosen) return;
                setPicking(false);
                onSnooze({ until: chosen });
              }}
            >
              {SNOOZE_LABELS.menu}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
