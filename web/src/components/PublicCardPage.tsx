import type { ReactNode } from 'react';
import { Paper } from '@mantine/core';
import { PublicPage } from './PublicPage.tsx';

/** A public page whose content is one card (an invitation, an acknowledge link). */
export function PublicCardPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PublicPage title={title}>
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={460}>
        {children}
      </Paper>
    </PublicPage>
  );
}
