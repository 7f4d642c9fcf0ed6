import { Fieldset, NumberInput, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import { PSA_NAMES, type PsaType } from '../../../../../contract/psa.ts';
import { priorityPlaceholder, PSA_UI, SETTINGS_FIELDS } from './psa-texts.ts';

interface SettingsFieldsProps {
  type: PsaType;
  values: Record<string, string>;
  onChange: (key: string, value: string) => void;
  priorities: Partial<Record<AlertPriority, string>>;
  onPriority: (p: AlertPriority, value: string) => void;
  /** When editing: which secrets are stored (an empty one keeps it). */
  secretsSet: Record<string, boolean> | null;
  errors: Record<string, string>;
}

/** The type's connection settings (secrets as password inputs) and its priority mapping. */
export function PsaSettingsFields({ type, values, onChange, priorities, onPriority, secretsSet, errors }: SettingsFieldsProps) {
  const numeric = type !== 'connectwise';
  return (
    <>
      <Fieldset legend={`${PSA_NAMES[type]} connection`} radius="md">
        <Stack gap="sm">
          {SETTINGS_FIELDS[type].map((f) => {
            const common = {
              label: f.label,
              placeholder: f.placeholder,
              value: values[f.key] ?? '',
              error: errors[`settings.${f.key}`] || undefined,
              'data-testid': `psa-setting-${f.key}`,
            };
            if (f.kind === 'secret') {
              const kept = !!secretsSet?.[f.key];
              return (
                <PasswordInput
                  key={f.key}
                  {...common}
                  placeholder={kept ? PSA_UI.secretPlaceholder : f.placeholder}
                  description={[f.description, kept ? PSA_UI.secretKept : PSA_UI.secretNew].filter(Boolean).join(' ')}
                  onChange={(e) => onChange(f.key, e.currentTarget.value)}
                  withAsterisk={!kept}
                  autoComplete="off"
                />
              );
            }
            return f.kind === 'id' ? (
              <NumberInput key={f.key} {...common} description={f.description} onChange={(v) => onChange(f.key, String(v))} min={1} allowDecimal={false} allowNegative={false} hideControls withAsterisk />
            ) : (
              <TextInput key={f.key} {...common} description={f.description} onChange={(e) => onChange(f.key, e.currentTarget.value)} withAsterisk />
            );
          })}
        </Stack>
      </Fieldset>
      <Fieldset legend="Priority mapping" radius="md">
        <Text size="sm" c="dimmed" mb="xs">
          {numeric ? `The ${PSA_NAMES[type]} priority id` : `The ${PSA_NAMES[type]} priority name`} each alert priority becomes. Empty: the default shown.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          {ALERT_PRIORITIES.map((p) => {
            const common = { label: PRIORITY_LABELS[p], placeholder: priorityPlaceholder(type, p), value: priorities[p] ?? '', error: errors[`settings.priorities.${p}`] || undefined };
            return numeric ? (
              <NumberInput key={p} {...common} onChange={(v) => onPriority(p, String(v))} min={1} allowDecimal={false} allowNegative={false} hideControls />
            ) : (
              <TextInput key={p} {...common} onChange={(e) => onPriority(p, e.currentTarget.value)} />
            );
          })}
        </SimpleGrid>
      </Fieldset>
    </>
  );
}
