import { useState } from 'react';
import { Alert, Avatar, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { PROFILE_MSG } from '../../../../../contract/profile.ts';
import { useSignedInMe } from '../../../lib/session.tsx';
import { ApiError } from '../../../lib/api.ts';
import { setTheme, useTheme, type Theme } from '../../../lib/theme.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { MyOnCallCard } from './MyOnCallCard.tsx';

/** Profile: display name, read-only email, theme, and my on-call shifts with my calendar feed. */
export function ProfileTab() {
  const me = useSignedInMe();
  const theme = useTheme();
  const [name, setName] = useState(me.user.displayName);
  const [error, setError] = useState<{ field: boolean; message: string } | null>(null);
  const update = useUpdateProfile();

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError({ field: true, message: MSG.displayNameEmpty });
    setError(null);
    try {
      await update.mutateAsync({ displayName: name.trim() });
      notifications.show({ color: 'green', message: PROFILE_MSG.profileSaved });
    } catch (err) {
      const field = err instanceof ApiError ? err.fields.displayName : undefined;
      setError(field ? { field: true, message: field } : { field: false, message: MSG.profileUpdateFailed });
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
                  How your name appears to your colleagues.
                </Text>
              </div>
            </Group>
            {error && !error.field && (
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
              error={error?.field ? error.message : null}
              maxLength={120}
            />
            <TextInput label="Email" value={me.user.email} readOnly variant="filled" description={MSG.emailCannotChange} />
            <Group>
              <Button type="submit" loading={update.isPending} disabled={name.trim() === me.user.displayName}>
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
