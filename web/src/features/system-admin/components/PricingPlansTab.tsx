import { useState } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconReceipt, IconSettings, IconTrash } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import type { PricingPlan } from '../../../../../contract/pricing.ts';
import { StatePanel } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useDeletePricingPlan } from '../api/delete-pricing-plan.ts';
import { useAllPlans } from '../api/list-pricing-plans.ts';
import { usePricingSettings } from '../../../lib/pricing-settings.ts';
import { PlanFormModal } from './PlanFormModal.tsx';
import { PricingSettingsModal } from './PricingSettingsModal.tsx';
import { AdminDeleteModal } from './AdminDeleteModal.tsx';
import { useDeleteConfirmation } from './use-delete-confirmation.ts';

function PlanCard({ plan, onEdit, onDelete }: { plan: PricingPlan; onEdit: () => void; onDelete: () => void }) {
  const included = plan.features.filter((f) => f.included);
  return (
    <Paper withBorder radius="md" p="lg" data-testid={`plan-card-${plan.id}`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={2} size="h4">{plan.name}</Title>
            <Text size="xs" c="dimmed">
              {plan.id} · sort order {plan.sortOrder}
            </Text>
          </div>
          <Group gap={6} wrap="nowrap">
            {plan.isDefault && <Badge color="green">Default</Badge>}
            {!plan.isPublic && (
              <Badge color="gray" variant="outline">
                Private
              </Badge>
            )}
          </Group>
        </Group>
        <Text fw={800} fz={24}>
          {plan.price}
        </Text>
        {plan.description && (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        )}
        <Text size="sm" fw={500}>
          {plan.maxUsers} users · {plan.maxClients} clients
        </Text>
        <Group gap={6}>
          {included.length === 0 ? (
            <Text size="sm" c="dimmed">
              No features included
            </Text>
          ) : (
            included.map((f) => (
              <Badge key={f.id} variant="light" color="gray" tt="none" fw={500}>
                {f.name}
              </Badge>
            ))
          )}
        </Group>
        <Group gap="xs" mt="auto" pt="xs">
          <Button size="xs" variant="default" leftSection={<IconPencil size={14} />} onClick={onEdit}>
            Edit
          </Button>
          <Tooltip label={MSG.cannotDeleteDefaultPlan} disabled={!plan.isDefault}>
            <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete} disabled={plan.isDefault}>
              Delete
            </Button>
          </Tooltip>
        </Group>
      </Stack>
    </Paper>
  );
}

function SettingsSummary({ onEdit }: { onEdit: () => void }) {
  const settings = usePricingSettings();
  const s = settings.data;
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" gap="sm">
        <Group gap="xl" data-testid="pricing-settings-summary">
          {settings.isError ? (
            <Text c="red" size="sm">
              Failed to load pricing settings
            </Text>
          ) : !s ? (
            <Text c="dimmed" size="sm">
              {MSG.loading}
            </Text>
          ) : (
            [
              ['Currency', s.currency],
              ['Billing cycle', s.billingCycle === 'monthly' ? 'Monthly' : 'Yearly'],
              ['Yearly discount', s.showYearlyDiscount ? `${s.yearlyDiscountPercentage}%` : 'Hidden'],
              ['Tax', `${s.taxRate}% ${s.taxInclusive ? 'included' : 'added'}`],
              ['Updated', s.updatedAt ? formatDateTime(s.updatedAt) : 'Defaults'],
            ].map(([label, value]) => (
              <div key={label}>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text size="sm" fw={600}>
                  {value}
                </Text>
              </div>
            ))
          )}
        </Group>
        <Button variant="default" leftSection={<IconSettings size={16} />} onClick={onEdit} disabled={!s}>
          Edit Settings
        </Button>
      </Group>
    </Paper>
  );
}

export function PricingPlansTab() {
  const plans = useAllPlans();
  const settings = usePricingSettings();
  const [editing, setEditing] = useState<PricingPlan | 'new' | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const remove = useDeletePricingPlan();
  const deletion = useDeleteConfirmation(remove, (p: PricingPlan) => `The ${p.name} plan was deleted.`);

  let body;
  if (plans.isPending) body = <Loading />;
  else if (plans.isError)
    body = (
      <StatePanel icon={<IconReceipt />} title={MSG.pricingLoadFailed} color="red">
        <Button variant="light" onClick={() => plans.refetch()} loading={plans.isFetching}>
          Retry
        </Button>
      </StatePanel>
    );
  else if (plans.data.length === 0) body = <StatePanel icon={<IconReceipt />} title="No pricing plans yet" />;
  else
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }}>
        {plans.data.map((p) => (
          <PlanCard
            key={p.id}
            plan={p}
            onEdit={() => setEditing(p)}
            onDelete={() => deletion.ask(p)}
          />
        ))}
      </SimpleGrid>
    );

  const nextSortOrder = plans.data?.length ? Math.max(...plans.data.map((p) => p.sortOrder)) + 1 : 0;
  return (
    <Stack>
      <SettingsSummary onEdit={() => setSettingsOpen(true)} />
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          Public plans appear on the home page and in registration, in sort order.
        </Text>
        <AddButton onClick={() => setEditing('new')} disabled={!plans.data}>
          Add Plan
        </AddButton>
      </Group>
      {body}
      {editing && <PlanFormModal plan={editing === 'new' ? null : editing} nextSortOrder={nextSortOrder} onClose={() => setEditing(null)} />}
      {settingsOpen && settings.data && <PricingSettingsModal settings={settings.data} onClose={() => setSettingsOpen(false)} />}
      <AdminDeleteModal
        confirmation={deletion}
        remove={remove}
        title="Delete Plan"
        failureTitle={MSG.pricingDeleteFailed}
        question={(p) => `Are you sure you want to delete the ${p.name} plan? Tenants on it keep their current limits.`}
      />
    </Stack>
  );
}
