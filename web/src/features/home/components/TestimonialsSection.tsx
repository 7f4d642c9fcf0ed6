import { Avatar, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconQuote } from '@tabler/icons-react';
import classes from './home.module.css';

// Three customer testimonials (spec section 1); one mentions the 65% response time reduction.
export const TESTIMONIALS = [
  {
    quote: 'Since we moved our alerting to Alertdesk, our average response time dropped by 65%. Nothing slips through the cracks at 3 AM anymore.',
    name: 'Sarah Mitchell',
    role: 'Operations Director, Northbridge IT',
    color: 'orange',
  },
  {
    quote: 'Forty clients, six monitoring tools, one screen. My engineers finally see what matters first, and our clients notice it.',
    name: 'David Okafor',
    role: 'Founder, Okafor Managed Services',
    color: 'blue',
  },
  {
    quote: 'Escalation policies and on-call schedules took an afternoon to set up. Onboarding a new client now takes minutes, not days.',
    name: 'Lena Hoffmann',
    role: 'Service Desk Lead, Alpenblick Systems',
    color: 'grape',
  },
];

const initials = (name: string) =>
  name
    .split(' ')
    .map((p) => p[0])
    .join('');

export function TestimonialsSection() {
  return (
    <section id="testimonials" className={classes.section} aria-labelledby="testimonials-title">
      <Container size="xl">
        <Stack align="center" ta="center" gap="sm" mb={48}>
          <Text c="orange" fw={700} tt="uppercase" size="sm">
            Customers
          </Text>
          <Title order={2} id="testimonials-title" fz={{ base: 28, sm: 38 }}>
            Trusted by MSPs who can’t afford to miss an alert
          </Title>
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {TESTIMONIALS.map((t) => (
            <Paper key={t.name} withBorder radius="lg" p="xl" component="figure" m={0} data-testid="testimonial">
              <Stack justify="space-between" h="100%" gap="lg">
                <div>
                  <IconQuote size={28} color={`var(--mantine-color-${t.color}-5)`} />
                  <Text component="blockquote" m={0} mt="sm" size="md" lh={1.6}>
                    {t.quote}
                  </Text>
                </div>
                <Group gap="sm" component="figcaption">
                  <Avatar color={t.color} radius="xl">
                    {initials(t.name)}
                  </Avatar>
                  <div>
                    <Text fw={600} size="sm">
                      {t.name}
                    </Text>
                    <Text c="dimmed" size="xs">
                      {t.role}
                    </Text>
                  </div>
                </Group>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      </Container>
    </section>
  );
}
