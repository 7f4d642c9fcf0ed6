import { Badge, Box, Button, Container, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCheck, IconPointFilled } from '@tabler/icons-react';
import { InternalLink } from '../../../components/InternalLink.tsx';
import classes from './home.module.css';

const STATS = [
  { label: 'Critical', value: 2, color: 'red' },
  { label: 'High', value: 5, color: 'orange' },
  { label: 'Medium', value: 9, color: 'yellow' },
  { label: 'Low/Info', value: 14, color: 'blue' },
];

const ALERTS = [
  { priority: 'critical', color: 'red', title: 'Backup job failed', client: 'Northwind Dental', status: 'New', ago: '2 min' },
  { priority: 'high', color: 'orange', title: 'Disk C: 94% full on FS01', client: 'Baker & Co. Accountants', status: 'Acknowledged', ago: '11 min' },
  { priority: 'medium', color: 'yellow', title: 'TLS certificate expires in 7 days', client: 'Riverside Clinic', status: 'In progress', ago: '38 min' },
];

/** A still picture of the dashboard: what a visitor will get, drawn with the app's own components. */
function ProductPreview() {
  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }} className={classes.preview} aria-hidden>
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Text fw={700}>Active Alerts</Text>
        <Badge variant="light" color="green" leftSection={<IconPointFilled size={12} />}>
          Live
        </Badge>
      </Group>
      <SimpleGrid cols={4} spacing="xs" mb="md">
        {STATS.map((s) => (
          <Paper key={s.label} withBorder radius="md" p="xs" style={{ borderTop: `3px solid var(--mantine-color-${s.color}-6)` }}>
            <Text size="xs" c="dimmed" truncate>
              {s.label}
            </Text>
            <Text fw={800} fz={22}>
              {s.value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Stack gap="xs">
        {ALERTS.map((a) => (
          <Paper key={a.title} withBorder radius="md" p="sm">
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Box miw={0}>
                <Group gap={8} wrap="nowrap">
                  <Badge color={a.color} variant="filled" size="sm" className="no-shrink">
                    {a.priority}
                  </Badge>
                  <Text size="sm" fw={600} truncate>
                    {a.title}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" mt={4} truncate>
                  {a.client} · {a.ago} ago
                </Text>
              </Box>
              <Badge variant="light" color="gray" visibleFrom="xs" className="no-shrink">
                {a.status}
              </Badge>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}

export function Hero() {
  return (
    <section className={classes.hero} aria-labelledby="hero-title">
      <Container size="xl" py={{ base: 48, md: 96 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={{ base: 40, md: 64 }} style={{ alignItems: 'center' }}>
          <Stack gap="lg">
            <Badge variant="light" size="lg" radius="sm" w="fit-content">
              Alert management for MSPs
            </Badge>
            <Title order={1} id="hero-title" className={classes.heroTitle}>
              Every alert, every client, <span className={classes.accent}>handled on time.</span>
            </Title>
            <Text size="lg" c="dimmed" maw={560}>
              Alertdesk brings the alerts from all your clients into one live desk, escalates what nobody picked up and keeps
              your team and your clients in the loop.
            </Text>
            <Group gap="sm">
              <Button component={InternalLink} to="/login?signup=1" size="lg" rightSection={<IconArrowRight size={18} />}>
                Start your free trial
              </Button>
              <Button component="a" href="#pricing" size="lg" variant="default">
                See pricing
              </Button>
            </Group>
            <Group gap="lg">
              {['14-day free trial', 'No credit card required'].map((t) => (
                <Group key={t} gap={6}>
                  <ThemeIcon size={20} radius="xl" color="green" variant="light">
                    <IconCheck size={13} />
                  </ThemeIcon>
                  <Text size="sm" c="dimmed">
                    {t}
                  </Text>
                </Group>
              ))}
            </Group>
          </Stack>
          <ProductPreview />
        </SimpleGrid>
      </Container>
    </section>
  );
}
