import { useState } from 'react';
import { Box, Group, Paper, Select, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconMail } from '@tabler/icons-react';
import { ESCALATION_MSG } from '../../../../../contract/escalation.ts';
import { INTEGRATION_MSG, type Integration, type IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { ClientSelect } from '../../../components/ClientSelect.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { NameField } from '../../../components/NameField.tsx';
import { useFormErrors } from '../../../components/use-form-errors.ts';
import { ApiError } from '../../../lib/api.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { policySelectData, useEscalationPolicyChoices } from '../../../lib/escalation-policy-choices.ts';
import { useCreateIntegration } from '../api/create-integration.ts';
import { useUpdateIntegration } from '../api/update-integration.ts';
import { EmailSettingsFields, emailDraftErrors, emailDraftOf, emailSettingsOf } from './EmailSettingsFields.tsx';

const hasEmailError = (errors: Record<string, string>) => Object.entries(errors).some(([k, v]) => v && k.startsWith('emailSettings'));

/** New integration (name, optional client, mail rules; the key is shown once afterwards) or Edit integration. */
export function IntegrationFormModal({ tenantId, editing, opened, onClose, onCreated }: { tenantId: string; editing: Integration | null; opened: boolean; onClose: () => void; onCreated: (r: IntegrationWithKey) => void }) {
  const clients = useClientChoices(tenantId, { enabled: opened });
  const policies = useEscalationPolicyChoices(tenantId, { enabled: opened });
  const create = useCreateIntegration(tenantId);
  const update = useUpdateIntegration(tenantId);
  const [name, setName] = useState(editing?.name ?? '');
  const [clientId, setClientId] = useState<string | null>(editing?.clientId ?? null);
  const [escalationPolicyId, setEscalationPolicyId] = useState<string | null>(editing?.escalationPolicyId ?? null);
  const [email, setEmail] = useState(() => emailDraftOf(editing?.emailSettings));
  const [emailOpen, setEmailOpen] = useState(false);
  const { errors, setErrors, failure, setFailure, clear } = useFormErrors();
  const pending = create.isPending || update.isPending;

  const submit = () => {
    setFailure(null);
    const showErrors = (found: Record<string, string>) => {
      setErrors(found);
      if (hasEmailError(found)) setEmailOpen(true);
    };
    const local = { ...(name.trim() ? {} : { name: INTEGRATION_MSG.nameRequired }), ...emailDraftErrors(email) };
    if (Object.keys(local).length) return showErrors(local);
    const onError = (err: unknown) => {
      if (err instanceof ApiError && Object.keys(err.fields).length) showErrors(emailDraftErrors(email, err.fields));
      else setFailure(err instanceof Error ? err.message : String(err));
    };
    const emailSettings = emailSettingsOf(email);
    if (editing) {
      update.mutate(
        { id: editing.id, name: name.trim(), clientId, escalationPolicyId, emailSettings },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: 'Integration saved' });
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate({ name: name.trim(), clientId, escalationPolicyId, emailSettings }, { onSuccess: (r) => onCreated(r), onError });
    }
  };

  return (
    <FormModal
      opened={opened}
      title={editing ? 'Edit integration' : 'New integration'}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      submitLabel={editing ? 'Save Changes' : 'Create integration'}
      submitting={pending}
      data-testid="integration-form"
    >
      <NameField placeholder="Prometheus production" description="Which tool sends through this key, so you can tell keys apart." value={name} onChange={(v) => (setName(v), clear('name'))} error={errors.name} />
      <ClientSelect clients={clients} description="Alerts through this key belong to this client (optional)." value={clientId} onChange={(v) => (setClientId(v), clear('clientId'))} error={errors.clientId} />
      <Select
        label={ESCALATION_MSG.selectLabel}
        description={ESCALATION_MSG.integrationSelectHelp}
        placeholder={policies.isPending ? 'Loading...' : ESCALATION_MSG.selectPlaceholder}
        data={policySelectData(policies.data)}
        value={escalationPolicyId}
        onChange={(v) => (setEscalationPolicyId(v), clear('escalationPolicyId'))}
        error={errors.escalationPolicyId || (policies.isError ? ESCALATION_MSG.choicesLoadFailed : undefined)}
        clearable
        searchable
        comboboxProps={{ withinPortal: true }}
      />
      {/* A plain disclosure, not an Accordion: Mantine's Collapse would move out of the first visit's chunks. */}
      <Paper withBorder radius="md">
        <UnstyledButton
          onClick={() => setEmailOpen((open) => !open)}
          aria-expanded={emailOpen}
          aria-controls="integration-email-settings"
          data-testid="email-settings-toggle"
          p="sm"
          w="100%"
        >
          <Group gap="sm" wrap="nowrap">
            <IconMail size={18} aria-hidden />
            <div className="grow min-w-0">
              <Text size="sm" fw={500}>
                Email settings
              </Text>
              <Text size="xs" c="dimmed">
                How mail to this integration’s address becomes alerts
              </Text>
            </div>
            <IconChevronDown size={16} aria-hidden style={{ transform: emailOpen ? 'rotate(180deg)' : undefined, transition: 'transform 150ms' }} />
          </Group>
        </UnstyledButton>
        {emailOpen && (
          <Box id="integration-email-settings" px="sm" pb="sm">
            <EmailSettingsFields
              draft={email}
              errors={errors}
              onChange={(next) => {
                setEmail(next);
                setErrors((x) => Object.fromEntries(Object.entries(x).filter(([k]) => !k.startsWith('emailSettings'))));
              }}
            />
          </Box>
        )}
      </Paper>
    </FormModal>
  );
}
