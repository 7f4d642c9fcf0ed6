import { useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus, IconSitemap } from '@tabler/icons-react';
import { ESCALATION_MSG, type EscalationPolicy } from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { usePolicies } from '../api/policies.ts';
import { useMemberChoices } from '../../../lib/member-choices.ts';
import { useSchedules } from '../api/schedules.ts';
import { PolicyCard } from './PolicyCard.tsx';
import { PolicyDeleteModal } from './PolicyDeleteModal.tsx';
import { PolicyFormModal } from './PolicyFormModal.tsx';

/** Tab Escalation Policies (spec section 2): the tenant's policies as cards, Create Policy, edit and delete. */
export function PoliciesTab({ tenantId }: { tenantId: string }) {
  const policies = usePolicies(tenantId);
  const members = useMemberChoices(tenantId);
  const schedules = useSchedules(tenantId);
  const [form, setForm] = useState<{ policy: EscalationPolicy | null } | null>(null);
  const [deleting, setDeleting] = useState<EscalationPolicy | null>(null);

  if (policies.isPending || members.isPending || schedules.isPending) return <Loading />;
  if (policies.isError || members.isError || schedules.isError) {
    return (
      <LoadError
        message={MSG.escalationLoadFailed}
        onRetry={() => {
          for (const q of [policies, members, schedules]) if (q.isError) void q.refetch();
        }}
      />
    );
  }

  const memberChoices = members.data.map((m) => ({ value: m.id, label: m.displayName || m.email }));
  const scheduleChoices = schedules.data.map((s) => ({ value: s.id, label: s.name }));
  const names = new Map(memberChoices.map((m) => [m.value, m.label]));
  const scheduleNames = new Map(scheduleChoices.map((s) => [s.value, s.label]));
  const userName = (id: string) => names.get(id) ?? MSG.unknownUser;
  const scheduleName = (id: string) => scheduleNames.get(id) ?? 'Unknown schedule';

  return (
    <Stack gap="md" data-testid="policies-tab">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          Who is paged when an alert opens, and who next while nobody acknowledges it. An integration or a client can name its own policy; every other alert follows the default.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ policy: null })}>
          {ESCALATION_MSG.createPolicy}
        </Button>
      </Group>

      {policies.data.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconSitemap size={32} stroke={1.5} />
          <Text c="dimmed" mt="xs" data-testid="policies-empty">
            {MSG.noEscalationPolicies}
          </Text>
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {policies.data.map((p) => (
            <PolicyCard key={p.id} policy={p} userName={userName} scheduleName={scheduleName} onEdit={() => setForm({ policy: p })} onDelete={() => setDeleting(p)} />
          ))}
        </SimpleGrid>
      )}

      <PolicyFormModal
        tenantId={tenantId}
        policy={form?.policy ?? null}
        opened={!!form}
        firstPolicy={policies.data.length === 0}
        members={memberChoices}
        schedules={scheduleChoices}
        onClose={() => setForm(null)}
      />
      <PolicyDeleteModal tenantId={tenantId} policy={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
