import { Box, Button, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import { InternalLink } from '../../../components/InternalLink.tsx';
import classes from './home.module.css';

const POINTS = ['Every feature included', 'No credit card required', 'Set up in minutes'];

export function TrialSection() {
  return (
    <section id="trial" className={classes.section} aria-labelledby="trial-title">
      <Container size="lg">
        <Box className={classes.trial} p={{ base: 'xl', sm: 48 }} style={{ borderRadius: 'var(--mantine-radius-xl)' }}>
          <Group justify="space-between" align="center" gap="xl">
            <Stack gap="sm" maw={640}>
              <Title order={2} id="trial-title" fz={{ base: 26, sm: 34 }} c="white">
                Try Alertdesk free for 14 days
              </Title>
              <Text size="lg" c="white" opacity={0.9}>
                Bring your team and your first clients. No credit card required: if it is not for you, simply walk away.
              </Text>
              <Group gap="lg" mt="xs">
                {POINTS.map((p) => (
                  <Group key={p} gap={6}>
                    <ThemeIcon size={20} radius="xl" color="white" variant="white">
                      <IconCheck size={13} color="var(--mantine-color-orange-7)" />
                    </ThemeIcon>
                    <Text size="sm" c="white" fw={500}>
                      {p}
                    </Text>
                  </Group>
                ))}
              </Group>
            </Stack>
            <Button component={InternalLink} to="/login?signup=1" size="lg" variant="white" color="dark" rightSection={<IconArrowRight size={18} />}>
              Start your free trial
            </Button>
          </Group>
        </Box>
      </Container>
    </section>
  );
}
