import { Anchor, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { InternalLink } from '../../../components/InternalLink.tsx';
import { LegalLinks } from '../../../components/LegalLinks.tsx';
import { Logo } from '../../../components/Logo.tsx';
import classes from './home.module.css';

export function HomeFooter() {
  return (
    <footer className={classes.footer}>
      <Container size="xl" py={48}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
          <Stack gap="sm">
            <Logo to="/" />
            <Text size="sm" c="dimmed" maw={300}>
              Alert management for managed service providers: every alert, every client, handled on time.
            </Text>
          </Stack>
          <Stack gap={8}>
            <Text fw={600} size="sm">
              Product
            </Text>
            <Anchor href="#features" size="sm" c="dimmed">
              Features
            </Anchor>
            <Anchor href="#pricing" size="sm" c="dimmed">
              Pricing
            </Anchor>
            <Anchor href="#testimonials" size="sm" c="dimmed">
              Customers
            </Anchor>
          </Stack>
          <Stack gap={8}>
            <Text fw={600} size="sm">
              Get started
            </Text>
            <Anchor component={InternalLink} to="/login" size="sm" c="dimmed">
              Sign in
            </Anchor>
            <Anchor component={InternalLink} to="/login?signup=1" size="sm" c="dimmed">
              Start your 14-day free trial
            </Anchor>
          </Stack>
        </SimpleGrid>
        <Group justify="space-between" mt={40} gap="xs">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} Alertdesk. All rights reserved.
          </Text>
          <LegalLinks size="xs" />
          <Text size="xs" c="dimmed">
            Made for MSPs who never sleep, so their engineers can.
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
