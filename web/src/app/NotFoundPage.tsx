import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PublicPage } from '../components/PublicPage.tsx';

export function NotFoundPage() {
  return (
    <PublicPage title="Page not found">
      <Stack align="center" ta="center" mt="15vh">
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">The page you are looking for does not exist.</Text>
        <Button component={Link} to="/">
          Go to the homepage
        </Button>
      </Stack>
    </PublicPage>
  );
}
