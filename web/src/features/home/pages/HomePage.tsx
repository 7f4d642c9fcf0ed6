import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Logo } from '../../../components/Logo.tsx';
import { ThemeToggle } from '../../../components/ThemeToggle.tsx';

/** The marketing home page (fleshed out by the home-page issue). */
export function HomePage() {
  return (
    <Container size="lg" py="md">
      <Group justify="space-between">
        <Logo to="/" />
        <Group>
          <Button component={Link} to="/login" variant="default">
            Sign in
          </Button>
          <ThemeToggle />
        </Group>
      </Group>
      <Stack align="center" ta="center" py={80} gap="lg">
        <Title order={1} fz={{ base: 34, sm: 52 }}>
          Alert management built for MSPs
        </Title>
        <Text c="dimmed" size="lg" maw={640}>
          Receive alerts from every monitoring tool, route them to the right engineer and keep every client informed.
        </Text>
        <Button component={Link} to="/login" size="lg">
          Start your free trial
        </Button>
      </Stack>
    </Container>
  );
}
