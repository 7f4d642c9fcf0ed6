import { Container, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBellRinging, IconCheck, IconLayoutDashboard, IconUsersGroup } from '@tabler/icons-react';
import classes from './home.module.css';

// The three features of spec section 1.
const FEATURES = [
  {
    icon: IconBellRinging,
    title: 'Real-time alerts',
    text: 'Alerts from every monitoring tool land on your desk the moment they fire, ranked from critical to info.',
    points: ['Push, email and SMS notifications', 'Acknowledge, assign and resolve in one click', 'Escalation when nobody responds'],
  },
  {
    icon: IconLayoutDashboard,
    title: 'Comprehensive dashboard',
    text: 'See what is burning across all your clients at a glance, and filter down to what needs you now.',
    points: ['Live counts by priority', 'Filters by status and priority', 'Full history with notes and timeline'],
  },
  {
    icon: IconUsersGroup,
    title: 'Client management',
    text: 'Keep every client’s contacts, details and alerts together, so whoever is on call has the full picture.',
    points: ['Contacts, addresses and custom fields', 'Search and sort across clients', 'Per-client alert history'],
  },
];

export function FeaturesSection() {
  return (
    <section id="features" className={classes.section} aria-labelledby="features-title">
      <Container size="xl">
        <Stack align="center" ta="center" gap="sm" mb={48}>
          <Text c="orange" fw={700} tt="uppercase" size="sm">
            Features
          </Text>
          <Title order={2} id="features-title" fz={{ base: 28, sm: 38 }}>
            Everything your NOC needs, nothing it doesn’t
          </Title>
          <Text c="dimmed" size="lg" maw={640}>
            Built with MSP engineers for the way they actually work: many clients, many tools, one team on call.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {FEATURES.map((f) => (
            <Paper key={f.title} withBorder radius="lg" p="xl" className={classes.card}>
              <ThemeIcon size={48} radius="md" variant="light">
                <f.icon size={26} />
              </ThemeIcon>
              <Title order={3} fz="xl" mt="lg" mb="xs">
                {f.title}
              </Title>
              <Text c="dimmed" mb="md">
                {f.text}
              </Text>
              <List
                spacing={6}
                size="sm"
                icon={
                  <ThemeIcon size={18} radius="xl" color="green" variant="light">
                    <IconCheck size={12} />
                  </ThemeIcon>
                }
              >
                {f.points.map((p) => (
                  <List.Item key={p}>{p}</List.Item>
                ))}
              </List>
            </Paper>
          ))}
        </SimpleGrid>
      </Container>
    </section>
  );
}
