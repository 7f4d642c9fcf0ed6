import type { ReactNode } from 'react';
import { Box, Center, Group, Paper } from '@mantine/core';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

/** A page reached from a link without the app around it (an invitation, an acknowledge link): logo, theme, one card. */
export function PublicCardPage({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group justify="space-between" p="md">
        <Logo to="/" />
        <ThemeToggle />
      </Group>
      <Center px="md" pb="xl">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={460}>
          {children}
        </Paper>
      </Center>
    </Box>
  );
}
