import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TenantDetails } from '../../../../../contract/members.ts';
import { formatDate } from '../../../lib/dates.ts';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={500} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The Tenant Details card of spec section 2: Name, Plan, Max Users, Max Clients, Created, and the seats in use. */
export function TenantDetailsCard({ details }: { details: TenantDetails }) {
  const full = details.seatsUsed >= details.maxUsers;
  return (
    <Paper withBorder radius="md" p="lg" mb="lg" data-testid="tenant-details">
      <Title order={2} size="h4" mb="md">
        Tenant Details
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="lg">
        <Field label="Name">{details.name}</Field>
        <Field label="Plan">
          <Badge variant="light">{details.planName ?? details.plan}</Badge>
        </Field>
        <Field label="Max Users">{details.maxUsers}</Field>
        <Field label="Max Clients">{details.maxClients}</Field>
        <Field label="Created">{formatDate(details.createdAt)}</Field>
      </SimpleGrid>
      <Stack gap={4} mt="lg">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" c="dimmed">
            Users, including pending invitations
          </Text>
          <Text size="sm" fw={600} c={full ? 'red' : undefined} data-testid="seats-used" className="nowrap">
            {details.seatsUsed} of {details.maxUsers}
          </Text>
        </Group>
        <Progress value={Math.min(100, (details.seatsUsed / Math.max(1, details.maxUsers)) * 100)} color={full ? 'red' : 'orange'} size="sm" aria-label="Users in use" />
      </Stack>
    </Paper>
  );
}
