import type { ReactNode } from 'react';
import { Box, Center, Group } from '@mantine/core';
import { LegalLinks } from './LegalLinks.tsx';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useDocumentTitle } from '../lib/document-title.ts';

/**
 * A page outside the signed-in app (sign-in, password, not found, privacy, terms): the logo home, the theme toggle,
 * the content, and a footer with the privacy, terms and contact links.
 */
export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)" display="flex" style={{ flexDirection: 'column' }}>
      <Group justify="space-between" p="md" component="header">
        <Logo to="/" />
        <ThemeToggle />
      </Group>
      <Center px="md" pb="xl" component="main" style={{ flex: 1, alignItems: 'flex-start' }}>
        {children}
      </Center>
      <Group component="footer" justify="center" px="md" pb="md">
        <LegalLinks size="xs" />
      </Group>
    </Box>
  );
}
