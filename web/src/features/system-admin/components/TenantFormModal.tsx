import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import type { PricingPlan } from '../../../../../contract/pricing.ts';
import { SYSTEM_MSG, type AdminTenant } from '../../../../../contract/system.ts';
import { useCreateTenant } from '../api/create-tenant.ts';
import { useUpdateTenant } from '../api/update-tenant.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';

/** Add Tenant (name, plan, optional owner) or Edit Tenant (name, plan). Rendered only while open. */
export function TenantFormModal({ tenant, plans, onClose }: { tenant: AdminTenant | null; plans: PricingPlan[]; onClose: () => void }) {
  const editing = tenant !== null;
  const [name, setName] = useState(tenant?.name ?? '');
  const [plan, setPlan] = useState<string | null>(tenant?.plan ?? plans.find((p) => p.isDefault)?.id ?? plans[0]?.id ?? null);
  const [ownerEmail, setOwnerEmail] = useState('');
  const [planError, setPlanError] = useState<string | null>(null);
  const create = useCreateTenant();
  const update = useUpdateTenant();
  const mutation = editing ? update : create;
  const fields = serverFieldErrors(mutation.error);

  const options = plans.map((p) => ({ value: p.id, label: p.isPublic ? p.name : `${p.name} (private)` }));
  if (tenant && !plans.some((p) => p.id === tenant.plan)) options.push({ value: tenant.plan, label: `${tenant.plan} (deleted plan)` });
  const chosen = plans.find((p) => p.id === plan);
  const planChanges = editing && chosen && chosen.id !== tenant.plan;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    if (!plan) return setPlanError(SYSTEM_MSG.planRequired);
    try {
      if (tenant) await update.mutateAsync({ id: tenant.id, name: name.trim(), plan });
      else await create.mutateAsync({ name: name.trim(), plan, ownerEmail: ownerEmail.trim() || undefined });
      onClose();
    } catch {
      // Shown from mutation.error.
    }
  };

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit Tenant' : 'Add Tenant'} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {mutation.error && <FailureAlert title={editing ? MSG.tenantUpdateFailed : MSG.tenantAddFailed} error={mutation.error} />}
          <TextInput label="Tenant name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} data-autofocus />
          <Select
            label="Plan"
            required
            data={options}
            value={plan}
            onChange={(v) => {
              setPlan(v);
              setPlanError(null);
            }}
            allowDeselect={false}
            error={planError ?? fields.plan}
            comboboxProps={{ withinPortal: true }}
          />
          {planChanges && (
            <Alert color="blue" icon={<IconInfoCircle />} data-testid="plan-change-note">
              Changing the plan resets this tenant’s limits and features to the {chosen.name} preset: {chosen.maxUsers} users and {chosen.maxClients} clients.
            </Alert>
          )}
          {!editing && (
            <TextInput
              label="Owner email"
              description="Optional: an existing account that becomes the tenant’s owner"
              type="email"
              value={ownerEmail}
              onChange={(e) => setOwnerEmail(e.currentTarget.value)}
              error={fields.ownerEmail}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim()} loading={mutation.isPending}>
              {editing ? 'Save Changes' : 'Add Tenant'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
