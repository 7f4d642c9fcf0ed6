import type { ReactNode } from 'react';
import { Anchor, List, Paper, Stack, Text, Title } from '@mantine/core';
import { PublicPage } from '../../../components/PublicPage.tsx';
import { SUPPORT_EMAIL, SUPPORT_MAILTO } from '../../../lib/contact.ts';

/** A public page of plain-language text: its title as the tab's title and the one h1, then its sections. */
export function LegalPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <PublicPage title={title}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={760} data-testid="legal-page">
        <Stack gap="lg">
          <Stack gap="xs">
            <Title order={1} size="h2">
              {title}
            </Title>
            <Text c="dimmed">{intro}</Text>
          </Stack>
          {children}
        </Stack>
      </Paper>
    </PublicPage>
  );
}

export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={2} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export const Points = ({ children }: { children: ReactNode }) => (
  <List spacing="xs" size="sm">
    {children}
  </List>
);

export const Point = ({ children }: { children: ReactNode }) => <List.Item>{children}</List.Item>;

/** The support address as a mail link, underlined: inside a sentence a link must not stand out by colour alone. */
export const SupportEmail = () => (
  <Anchor href={SUPPORT_MAILTO} underline="always">
    {SUPPORT_EMAIL}
  </Anchor>
);
