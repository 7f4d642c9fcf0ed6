import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Alert, Button, Divider, Group, Modal, Select, SimpleGrid, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  CLIENT_MSG,
  CLIENT_STATUSES,
  ClientInput,
  COMPANY_SIZE_LABELS,
  COMPANY_SIZES,
  type Client,
  type ClientInputBody,
  type ClientStatus,
  type CompanySize,
} from '../../../../../contract/clients.ts';
import { ESCALATION_MSG } from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { ApiError } from '../../../lib/api.ts';
import { policySelectData, useEscalationPolicyChoices } from '../../../lib/escalation-policy-choices.ts';
import { useCreateClient } from '../api/create-client.ts';
import { useUpdateClient } from '../api/update-client.ts';
import { STATUS_LABELS } from './ClientStatusBadge.tsx';

const TEXT_FIELDS = ['name', 'description', 'contactName', 'contactEmail', 'contactPhone', 'address', 'city', 'state', 'zipCode', 'country', 'website', 'industry'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

interface CustomFieldRow {
  key: string;
  name: string;
  value: string;
}

interface FormValues extends Record<TextField, string> {
  status: ClientStatus | null;
  size: CompanySize | null;
  tags: string[];
  aliases: string[];
  customFields: CustomFieldRow[];
  escalationPolicyId: string | null;
}

let rowSeq = 0;
const newRow = (name = '', value = ''): CustomFieldRow => ({ key: `cf-${++rowSeq}`, name, value });

function initialValues(client: Client | null): FormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, client?.[f] ?? ''])) as Record<TextField, string>;
  return {
    ...text,
    status: client?.status ?? 'active',
    size: client?.size ?? null,
    tags: client?.tags ?? [],
    aliases: client?.aliases ?? [],
    customFields: Object.entries(client?.customFields ?? {}).map(([k, v]) => newRow(k, v)),
    escalationPolicyId: client?.escalationPolicyId ?? null,
  };
}

function toBody(v: FormValues): ClientInputBody {
  const customFields: Record<string, string> = {};
  for (const row of v.customFields) if (row.name.trim()) customFields[row.name.trim()] = row.value;
  return { ...v, status: (v.status ?? '') as ClientStatus, size: v.size ?? '', tags: v.tags, customFields };
}

/** The form's own checks: the shared schema (spec section 5), plus custom field rows the schema cannot see. */
function validate(v: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const parsed = ClientInput.safeParse(toBody(v));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'form');
      errors[field] ??= issue.message;
    }
  }
  const names = v.customFields.map((r) => r.name.trim().toLowerCase());
  if (v.customFields.some((r) => !r.name.trim() && r.value.trim())) errors.customFields ??= CLIENT_MSG.customFieldNameRequired;
  else if (names.some((n, i) => n && names.indexOf(n) !== i)) errors.customFields ??= CLIENT_MSG.customFieldNamesUnique;
  return errors;
}

/**
 * Add and edit client, one modal: every field of the Client entity. A field's error clears as soon as it is edited;
 * the server's own refusals (its field errors, the plan limit) are shown the same way.
 */
export function ClientFormModal({ tenantId, client, opened, onClose }: { tenantId: string; client: Client | null; opened: boolean; onClose: () => void }) {
  // On a phone the long form gets the whole screen rather than a box inside it.
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title={client ? 'Edit Client' : 'Add Client'} size="lg" centered fullScreen={phone}>
      {/* Keyed so each opening starts from the client's current values. */}
      {opened && <ClientForm key={client?.id ?? 'new'} tenantId={tenantId} client={client} onDone={onClose} />}
    </Modal>
  );
}

function ClientForm({ tenantId, client, onDone }: { tenantId: string; client: Client | null; onDone: () => void }) {
  const [values, setValues] = useState<FormValues>(() => initialValues(client));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateClient(tenantId);
  const update = useUpdateClient(tenantId);
  const policies = useEscalationPolicyChoices(tenantId);
  const busy = create.isPending || update.isPending;
  const formRef = useRef<HTMLFormElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  // The message appears above the buttons and pushes them down: keep both in view.
  useEffect(() => {
    if (formError) actionsRef.current?.scrollIntoView({ block: 'nearest' });
  }, [formError]);
  // The submit button is at the bottom of a long form: bring the first refused field into view and focus.
  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const change = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => {
      if (!(field in e)) return e;
      const { [field]: _cleared, ...rest } = e;
      return rest;
    });
  };
  const text = (field: TextField) => ({
    value: values[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => change(field, e.currentTarget.value),
    error: errors[field],
  });
  const setRow = (key: string, patch: Partial<CustomFieldRow>) =>
    change(
      'customFields',
      values.customFields.map((r) => (r.key === key ? { ...r, ...patch } : r)),
    );

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const found = validate(values);
    if (Object.keys(found).length) return showErrors(found);
    setErrors({});
    try {
      const body = toBody(values);
      if (client) await update.mutateAsync({ clientId: client.id, body });
      else await create.mutateAsync(body);
      notifications.show({ color: 'green', message: client ? CLIENT_MSG.updated : CLIENT_MSG.created });
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length) {
        const fromServer: Record<string, string> = {};
        for (const [path, message] of Object.entries(err.fields)) fromServer[path.split('.')[0]] ??= message;
        showErrors(fromServer);
      } else if (err instanceof ApiError && (err.code === 'plan_limit' || err.status === 404)) {
        // The plan limit names the limit; a client deleted meanwhile says 'Client not found'.
        setFormError(err.message);
      } else {
        setFormError(client ? MSG.clientUpdateFailed : MSG.clientCreateFailed);
      }
    }
  };

  return (
    <form onSubmit={submit} noValidate ref={formRef}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk data-autofocus {...text('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Status"
            withAsterisk
            placeholder="Select a status"
            data={CLIENT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            value={values.status}
            onChange={(v) => change('status', v as ClientStatus | null)}
            error={errors.status}
            clearable
          />
          <Select
            label="Company size"
            placeholder="Not specified"
            data={COMPANY_SIZES.map((s) => ({ value: s, label: COMPANY_SIZE_LABELS[s] }))}
            value={values.size}
            onChange={(v) => change('size', v as CompanySize | null)}
            error={errors.size}
            clearable
          />
        </SimpleGrid>
        <Textarea label="Description" autosize minRows={2} maxRows={5} {...text('description')} />
        <Select
          label={ESCALATION_MSG.selectLabel}
          description={ESCALATION_MSG.clientSelectHelp}
          placeholder={policies.isPending ? MSG.loading : ESCALATION_MSG.selectPlaceholder}
          data={policySelectData(policies.data)}
          value={values.escalationPolicyId}
          onChange={(v) => change('escalationPolicyId', v)}
          error={errors.escalationPolicyId || (policies.isError ? ESCALATION_MSG.choicesLoadFailed : undefined)}
          clearable
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <TagsInput
          label="Aliases"
          description={CLIENT_MSG.aliasesHelp}
          placeholder="Add an alias and press Enter"
          value={values.aliases}
          onChange={(aliases) => change('aliases', aliases)}
          error={errors.aliases}
          data-testid="client-aliases"
          clearable
        />

        <Divider label="Contact" labelPosition="left" mt="xs" />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Contact name" {...text('contactName')} />
          <TextInput label="Contact email" type="email" {...text('contactEmail')} />
          <TextInput label="Contact phone" type="tel" {...text('contactPhone')} />
          <TextInput label="Website" placeholder="https://www.example.com" {...text('website')} />
          <TextInput label="Industry" {...text('industry')} />
        </SimpleGrid>

        <Divider label="Address" labelPosition="left" mt="xs" />
        <TextInput label="Address" {...text('address')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="City" {...text('city')} />
          <TextInput label="State" {...text('state')} />
          <TextInput label="Zip code" {...text('zipCode')} />
          <TextInput label="Country" {...text('country')} />
        </SimpleGrid>

        <Divider label="Tags and custom fields" labelPosition="left" mt="xs" />
        <TagsInput
          label="Tags"
          description="Press Enter to add a tag"
          placeholder="Add a tag"
          value={values.tags}
          onChange={(tags) => change('tags', tags)}
          error={errors.tags}
          clearable
        />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Custom fields
          </Text>
          {values.customFields.map((row, i) => (
            <Group key={row.key} gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                aria-label={`Custom field ${i + 1} name`}
                placeholder="Name"
                value={row.name}
                onChange={(e) => setRow(row.key, { name: e.currentTarget.value })}
                className="grow"
              />
              <TextInput
                aria-label={`Custom field ${i + 1} value`}
                placeholder="Value"
                value={row.value}
                onChange={(e) => setRow(row.key, { value: e.currentTarget.value })}
                className="grow"
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove custom field ${i + 1}`}
                onClick={() =>
                  change(
                    'customFields',
                    values.customFields.filter((r) => r.key !== row.key),
                  )
                }
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {errors.customFields && (
            <Text size="xs" c="red" role="alert">
              {errors.customFields}
            </Text>
          )}
          <Group>
            <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={() => change('customFields', [...values.customFields, newRow()])}>
              Add custom field
            </Button>
          </Group>
        </Stack>

        {/* Next to the button that was pressed, where the eye already is. */}
        {formError && (
          <Alert color="red" icon={<IconAlertCircle />} data-testid="client-form-error">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" mt="sm" ref={actionsRef}>
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {client ? 'Save Changes' : 'Add Client'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
