import { useMemo, useState } from 'react';
import { Alert, Avatar, Button, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title, type OptionsFilter } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { PROFILE_MSG } from '../../../../../contract/profile.ts';
import { useSignedInMe } from '../../../lib/session.tsx';
import { ApiError } from '../../../lib/api.ts';
import { setTheme, useTheme, type Theme } from '../../../lib/theme.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { matchesTimeZone, timeZoneOptions } from '../lib/time-zones.ts';
import { MyOnCallCard } from './MyOnCallCard.tsx';

// The labels carry offsets ("Europe/Berlin (UTC+01:00)"): typing a place with spaces or an offset finds it too.
const filterTimeZones: OptionsFilter = ({ options, search, limit }) =>
  options.filter((o) => 'label' in o && matchesTimeZone(o.label, search)).slice(0, limit);

/** Profile: display name, read-only email, time zone, theme, and my on-call shifts with my calendar feed. */
export function ProfileTab() {
  const me = useSignedInMe();
  const theme = useTheme();
  const [name, setName] = useState(me.user.displayName);
  // Only what the person picked; until then the stored zone shows (which the app may fill in from the browser meanwhile).
  const [zoneChoice, setZoneChoice] = useState<string | null>(null);
  const zone = zoneChoice ?? me.user.timeZone;
  const zones = useMemo(() => timeZoneOptions(zone), [zone]);
  const [error, setError] = useState<{ field: 'displayName' | 'timeZone' | null; message: string } | null>(null);
  const update = useUpdateProfile();
  const zoneChanged = zone !== null && zone !== me.user.timeZone;

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError({ field: 'displayName', message: MSG.displayNameEmpty });
    setError(null);
    try {
      await update.mutateAsync({ displayName: name.trim(), ...(zoneChanged ? { timeZone: zone } : {}) });
      notifications.show({ color: 'green', message: PROFILE_MSG.profileSaved });
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : {};
      if (fields.displayName) setError({ field: 'displayName', message: fields.displayName });
      else if (fields.timeZone) setError({ field: 'timeZone', message: fields.timeZone });
      else setError({ field: null, message: MSG.profileUpdateFailed });
    }
  };

  return (
    <Stack>
      <Paper withBorder radius="md" p="lg">
        <form onSubmit={save} noValidate>
          <Stack maw={520}>
            <Group gap="md" wrap="nowrap">
              <Avatar color="orange" radius="xl" size="lg">
                {(me.user.displayName || me.user.email).charAt(0).toUpperCase()}
              </Avatar>
              <div className="min-w-0">
                <Title order={2} size="h4">Profile</Title>
                <Text size="sm" c="dimmed">
                  How your name appears to your colleagues, and the time zone your pages use.
                </Text>
              </div>
            </Group>
            {error && error.field === null && (
              <Alert color="red" role="alert">
                {error.message}
              </Alert>
            )}
            <TextInput
              label="Display name"
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setError(null);
              }}
              error={error?.field === 'displayName' ? error.message : null}
              maxLength={120}
            />
            <TextInput label="Email" value={me.user.email} readOnly variant="filled" description={MSG.emailCannotChange} />
            <Select
              label="Time zone"
              description={PROFILE_MSG.timeZoneDescription}
              placeholder="Search for a city or region"
              searchable
              allowDeselect={false}
              data={zones}
              filter={filterTimeZones}
              value={zone}
              onChange={(v) => {
                if (!v) return;
                setZoneChoice(v);
                if (error?.field === 'timeZone') setError(null);
              }}
              nothingFoundMessage="No time zone matches"
              maxDropdownHeight={280}
              error={error?.field === 'timeZone' ? error.message : null}
            />
            <Group>
              <Button type="submit" loading={update.isPending} disabled={name.trim() === me.user.displayName && !zoneChanged}>
                Save Profile
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Stack maw={520} gap="xs">
          <Title order={2} size="h4">Appearance</Title>
          <Text size="sm" c="dimmed">
            The theme is remembered in this browser.
          </Text>
          <SegmentedControl
            aria-label="Theme"
            value={theme}
            onChange={(v) => setTheme(v as Theme)}
            data={[
              {
                value: 'light',
                label: (
                  <Group gap={6} justify="center" wrap="nowrap">
                    <IconSun size={16} /> Light
                  </Group>
                ),
              },
              {
                value: 'dark',
                label: (
                  <Group gap={6} justify="center" wrap="nowrap">
                    <IconMoon size={16} /> Dark
                  </Group>
                ),
              },
            ]}
            w={{ base: '100%', xs: 260 }}
          />
        </Stack>
      </Paper>
      <MyOnCallCard />
    </Stack>
  );
}
