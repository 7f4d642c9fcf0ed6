import { Center, Loader, Stack, Text } from '@mantine/core';
import { MSG } from '../../../contract/messages.ts';

/** The loading state of spec section 2: a spinner with the text Loading... */
export function Loading({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Center h={fullScreen ? '100vh' : 240} role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader />
        <Text c="dimmed">{MSG.loading}</Text>
      </Stack>
    </Center>
  );
}
