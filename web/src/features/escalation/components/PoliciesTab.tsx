import { useState } from 'react';
import { SimpleGrid, Stack } from '@mantine/core';
import { IconSitemap } from '@tabler/icons-react';
import { ESCALATION_MSG, type EscalationPolicy } from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { EmptyCard } from '../../../components/EmptyCard.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PanelHeader } from '../../../components/PanelHeader.tsx';
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
      <PanelHeader
        description="Who is paged when an alert opens, and who next while nobody acknowledges it. An integration or a client can name its own policy; every other alert follows the default."
        action={<AddButton onClick={() => setForm({ policy: null })}>{ESCALATION_MSG.createPolicy}</AddButton>}
      />

      {policies.data.length === 0 ? (
        <EmptyCard icon={IconSitemap} data-testid="policies-empty">
          {MSG.noEscalationPolicies}
        </EmptyCard>
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
