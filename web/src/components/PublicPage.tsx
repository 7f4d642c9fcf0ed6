import type { ReactNode } from 'react';
import { Box, Center, Group } from '@mantine/core';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useDocumentTitle } from '../lib/document-title.ts';

/** A page outside the signed-in app (sign-in, password, not found): the logo home, the theme toggle, the content. */
export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group justify="space-between" p="md" component="header">
        <Logo to="/" />
        <ThemeToggle />
      </Group>
      <Center px="md" pb="xl" component="main">
        {children}
      </Center>
    </Box>
  );
}
