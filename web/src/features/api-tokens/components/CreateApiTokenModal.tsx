import { useState } from 'react';
import { Alert as Callout, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_MSG, API_TOKEN_ROLE_LABELS, API_TOKEN_ROLES, type ApiTokenCreated, type ApiTokenRole } from '../../../../../contract/api-tokens.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useCreateApiToken } from '../api/api-tokens.ts';

const EXPIRY_CHOICES = [{ value: 'never', label: 'Never' }, ...API_TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: `In ${d} days` }))];

const ROLE_HELP: Record<ApiTokenRole, string> = {
  read: 'Reads alerts, clients, schedules, policies, heartbeats and reports (GET only).',
  write: 'Also acts on alerts and changes clients, schedules, policies and integrations, as an admin would.',
};

/** New API token, then the token itself, once, with its copy button. */
export function CreateApiTokenModal({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const create = useCreateApiToken(tenantId);
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiTokenRole>('read');
  const [expiry, setExpiry] = useState('90');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);

  const submit = () => {
    setFailure(null);
    if (!name.trim()) return setErrors({ name: API_TOKEN_MSG.nameRequired });
    create.mutate(
      { name: name.trim(), role, expiresInDays: expiry === 'never' ? null : Number(expiry) },
      {
        onSuccess: setCreated,
        onError: (err) => {
          if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
          else setFailure(err instanceof Error ? err.message : String(err));
        },
      },
    );
  };

  if (created)
    return (
      <Modal opened onClose={onClose} title={`API token: ${created.name}`} size="lg" fullScreen={phone} data-testid="api-token-created">
        <Stack gap="md">
          <Callout color="orange" icon={<IconKey />}>
            {API_TOKEN_MSG.shownOnce}
          </Callout>
          <Copyable value={created.token} label="API token" />
          <Text size="sm" c="dimmed">
            Send it as <code>Authorization: Bearer {created.prefix}…</code> to this organization&apos;s API (see /api/docs).
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the token</Button>
          </Group>
        </Stack>
      </Modal>
    );

  return (
    <Modal opened onClose={onClose} title="New API token" fullScreen={phone} data-testid="api-token-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {failure && (
            <Callout color="red" icon={<IconAlertTriangle />}>
              {failure}
            </Callout>
          )}
          <TextInput
            label="Name"
            placeholder="CI pipeline"
            description="Who uses it: changes made with it show this name."
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: '' }));
            }}
            error={errors.name || undefined}
            data-autofocus
            withAsterisk
          />
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
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
