import { useState } from 'react';
import { Select, Text } from '@mantine/core';
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_MSG, API_TOKEN_ROLE_LABELS, API_TOKEN_ROLES, type ApiTokenCreated, type ApiTokenRole } from '../../../../../contract/api-tokens.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { NameField } from '../../../components/NameField.tsx';
import { useFormErrors } from '../../../components/use-form-errors.ts';
import { ShownOnceModal } from '../../../components/ShownOnceModal.tsx';
import { useCreateApiToken } from '../api/api-tokens.ts';

const EXPIRY_CHOICES = [{ value: 'never', label: 'Never' }, ...API_TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: `In ${d} days` }))];

const ROLE_HELP: Record<ApiTokenRole, string> = {
  read: 'Reads alerts, clients, schedules, policies, heartbeats and reports (GET only).',
  write: 'Also acts on alerts and changes clients, schedules, policies and integrations, as an admin would.',
};

/** New API token, then the token itself, once, with its copy button. */
export function CreateApiTokenModal({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const create = useCreateApiToken(tenantId);
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiTokenRole>('read');
  const [expiry, setExpiry] = useState('90');
  const { errors, setErrors, failure, setFailure, clear, refused } = useFormErrors();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);

  const submit = () => {
    setFailure(null);
    if (!name.trim()) return setErrors({ name: API_TOKEN_MSG.nameRequired });
    create.mutate({ name: name.trim(), role, expiresInDays: expiry === 'never' ? null : Number(expiry) }, { onSuccess: setCreated, onError: refused });
  };

  if (created)
    return (
      <ShownOnceModal
        title={`API token: ${created.name}`}
        notice={API_TOKEN_MSG.shownOnce}
        value={created.token}
        valueLabel="API token"
        doneLabel="I have copied the token"
        onClose={onClose}
        data-testid="api-token-created"
      >
        <Text size="sm" c="dimmed">
          Send it as <code>Authorization: Bearer {created.prefix}…</code> to this organization&apos;s API (see /api/docs).
        </Text>
      </ShownOnceModal>
    );

  return (
    <FormModal title="New API token" onClose={onClose} onSubmit={submit} failure={failure} submitLabel="Create token" submitting={create.isPending} data-testid="api-token-form">
      <NameField placeholder="CI pipeline" description="Who uses it: changes made with it show this name." value={name} onChange={(v) => (setName(v), clear('name'))} error={errors.name} />
      <Select
        label="Access"
        data={API_TOKEN_ROLES.map((r) => ({ value: r, label: API_TOKEN_ROLE_LABELS[r] }))}
        value={role}
        onChange={(v) => v && setRole(v as ApiTokenRole)}
        description={ROLE_HELP[role]}
        error={errors.role || undefined}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <Select label="Expires" data={EXPIRY_CHOICES} value={expiry} onChange={(v) => v && setExpiry(v)} error={errors.expiresInDays || undefined} allowDeselect={false} />
    </FormModal>
  );
}
