import { Button, Container, Group } from '@mantine/core';
import { InternalLink } from '../../../components/InternalLink.tsx';
import { Logo } from '../../../components/Logo.tsx';
import { ThemeToggle } from '../../../components/ThemeToggle.tsx';
import classes from './home.module.css';

const SECTIONS = [
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
  { href: '#testimonials', label: 'Customers' },
];

export function HomeHeader() {
  return (
    <header className={classes.header}>
      <Container size="xl" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Logo to="/" />
          <Group gap="xl" visibleFrom="md" component="nav" aria-label="Sections">
            {SECTIONS.map((s) => (
              <a key={s.href} href={s.href} className={classes.navLink}>
                {s.label}
              </a>
            ))}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Button component={InternalLink} to="/login" variant="subtle" color="gray">
              Sign in
            </Button>
            <Button component={InternalLink} to="/login?signup=1" visibleFrom="sm">
              Start free trial
            </Button>
            <ThemeToggle />
          </Group>
        </Group>
      </Container>
    </header>
  );
}
