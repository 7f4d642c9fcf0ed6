import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock, IconBuilding, IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { MSG } from '../../../contract/messages.ts';

/** A centred message for states where a page cannot show its content. */
export function StatePanel({ icon, title, children, color = 'gray' }: { icon: ReactNode; title: string; children?: ReactNode; color?: string }) {
  return (
    <Center py="xl">
      <Paper withBorder p="xl" radius="md" maw={480} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={48} radius="xl" variant="light" color={color}>
            {icon}
          </ThemeIcon>
          <Title order={2} size="h3">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

export const NoPermission = () => <StatePanel icon={<IconLock />} title={MSG.noPermission} color="red" />;

export const NoTenant = ({ children }: { children?: ReactNode }) => (
  <StatePanel icon={<IconBuilding />} title={MSG.noTenant}>
    {children}
  </StatePanel>
);

export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <StatePanel icon={<IconAlertTriangle />} title={message} color="red">
      {onRetry && (
        <Text component="button" onClick={onRetry} c="blue" style={{ background: 'none', border: 0, cursor: 'pointer' }}>
          Retry
        </Text>
      )}
    </StatePanel>
  );
}
