import { ActionIcon, Autocomplete, Button, Group, NativeSelect, Paper, SegmentedControl, Select, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { IconArrowNarrowDown, IconArrowNarrowUp, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import { RULE_LIMITS, RULE_OPS, type RuleOp } from '../../../../../contract/ingest-formats.ts';
import { newCondition, type ClientMode, type ConditionDraft, type RuleDraft } from './rules-draft.ts';

const OP_LABELS: Record<RuleOp, string> = { equals: 'equals', contains: 'contains', matches: 'matches (regex)', exists: 'exists' };

/** A field input suggesting the fields seen on the recent events, each with a value seen. */
function FieldInput({ label, value, onChange, error, fields, placeholder }: { label: string; value: string; onChange: (v: string) => void; error?: string; fields: Map<string, string[]>; placeholder?: string }) {
  return (
    <Autocomplete
      label={label}
      placeholder={placeholder ?? 'tags.client'}
      value={value}
      onChange={onChange}
      error={error}
      data={[...fields.keys()]}
      limit={50}
      maxDropdownHeight={260}
      renderOption={({ option }) => (
        <Group gap={6} wrap="nowrap" className="min-w-0">
          <Text size="sm" ff="monospace" className="no-shrink">
            {option.value}
          </Text>
          {fields.get(option.value)?.[0] !== undefined && (
            <Text size="xs" c="dimmed" truncate>
              {fields.get(option.value)![0]}
            </Text>
          )}
        </Group>
      )}
      comboboxProps={{ withinPortal: true }}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

interface RuleCardProps {
  index: number;
  count: number;
  rule: RuleDraft;
  onChange: (rule: RuleDraft) => void;
  /** Adding or removing a condition: the server's messages point at positions, so they are cleared. */
  onRestructure: (rule: RuleDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  errors: Record<string, string>;
  clearError: (...keys: string[]) => void;
  fields: Map<string, string[]>;
  clients: Array<{ value: string; label: string }>;
  clientsLoading: boolean;
  policies: Array<{ value: string; label: string }>;
  policiesLoading: boolean;
}

/** One rule: its conditions (all must hold) and what it does. */
export function RoutingRuleCard({ index, count, rule, onChange, onRestructure, onMove, onRemove, errors, clearError, fields, clients, clientsLoading, policies, policiesLoading }: RuleCardProps) {
  const n = index + 1;
  const at = `rules.${index}`;
  const err = (key: string) => errors[`${at}.${key}`] || undefined;
  const setCondition = (j: number, patch: Partial<ConditionDraft>, key: string) => {
    clearError(`${at}.when.${j}.${key}`);
    onChange({ ...rule, when: rule.when.map((c, k) => (k === j ? { ...c, ...patch } : c)) });
  };
  const setThen = (patch: Partial<RuleDraft>, ...keys: string[]) => {
    clearError(`${at}.then`, ...keys.map((k) => `${at}.then.${k}`));
    onChange({ ...rule, ...patch });
  };
  const thenError = err('then');
  const ruleError = errors[at];

  return (
    <Paper withBorder p="sm" radius="md" data-testid="routing-rule" data-index={index}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb="xs">
        <Text fw={700}>Rule {n}</Text>
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Move up">
            <ActionIcon variant="subtle" color="gray" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move rule ${n} up`}>
              <IconArrowNarrowUp size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Move down">
            <ActionIcon variant="subtle" color="gray" onClick={() => onMove(1)} disabled={index === count - 1} aria-label={`Move rule ${n} down`}>
              <IconArrowNarrowDown size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Remove rule">
            <ActionIcon variant="subtle" color="red" onClick={onRemove} aria-label={`Remove rule ${n}`}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {ruleError && (
        <Text size="sm" c="red" mb="xs">
          {ruleError}
        </Text>
      )}

      <Text size="sm" fw={600}>
        When
      </Text>
      <Stack gap="xs" mt={4}>
        {rule.when.length === 0 && (
          <Text size="sm" c="dimmed">
            No conditions: every event.
          </Text>
        )}
        {rule.when.map((c, j) => (
          <Group key={c.key} gap="xs" align="flex-start" wrap="nowrap" data-testid="rule-condition">
            <Group gap="xs" align="flex-start" wrap="wrap" style={{ flex: 1, minWidth: 0 }}>
              <div style={{ flex: '1 1 11rem', minWidth: 0 }}>
                <FieldInput label="Field" value={c.field} onChange={(v) => setCondition(j, { field: v }, 'field')} error={err(`when.${j}.field`)} fields={fields} />
              </div>
              <NativeSelect
                label="Operator"
                value={c.op}
                onChange={(e) => setCondition(j, { op: e.currentTarget.value as RuleOp }, 'value')}
                data={RULE_OPS.map((op) => ({ value: op, label: OP_LABELS[op] }))}
                error={err(`when.${j}.op`)}
                style={{ flex: '1 1 9.5rem' }}
              />
              {c.op !== 'exists' && (
                <div style={{ flex: '1 1 10rem', minWidth: 0 }}>
                  <Autocomplete
                    label="Value"
                    placeholder={c.op === 'matches' ? '^acme-' : 'acme'}
                    value={c.value}
                    onChange={(v) => setCondition(j, { value: v }, 'value')}
                    data={c.op === 'matches' ? [] : (fields.get(c.field.trim()) ?? [])}
                    error={err(`when.${j}.value`)}
                    maxLength={RULE_LIMITS.value}
                    comboboxProps={{ withinPortal: true }}
                    autoComplete="off"
                    spellCheck={false}
                    styles={c.op === 'matches' ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
                  />
                </div>
              )}
            </Group>
            <ActionIcon variant="subtle" color="gray" mt={26} onClick={() => onRestructure({ ...rule, when: rule.when.filter((_, k) => k !== j) })} aria-label={`Remove condition ${j + 1} of rule ${n}`}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ))}
        {rule.when.length < RULE_LIMITS.conditions && (
          <Button size="compact-sm" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => onRestructure({ ...rule, when: [...rule.when, newCondition()] })} style={{ alignSelf: 'flex-start' }}>
            Add condition
          </Button>
        )}
      </Stack>

      <Text size="sm" fw={600} mt="sm">
        Then
      </Text>
      <Stack gap="xs" mt={4}>
        <Switch label="Drop the event (no alert)" checked={rule.drop} onChange={(e) => setThen({ drop: e.currentTarget.checked })} />
        {!rule.drop && (
          <>
            <div>
              <Text size="sm" fw={500} mb={4} id={`rule-${rule.key}-client`}>
                Client
              </Text>
              <SegmentedControl
                size="xs"
                aria-labelledby={`rule-${rule.key}-client`}
                value={rule.clientMode}
                onChange={(v) => setThen({ clientMode: v as ClientMode }, 'clientId', 'clientFrom')}
                data={[
                  { value: 'none', label: 'Unchanged' },
                  { value: 'client', label: 'Set client' },
                  { value: 'field', label: 'From a field' },
                ]}
              />
            </div>
            {rule.clientMode === 'client' && (
              <Select
                label="Client to set"
                placeholder={clientsLoading ? 'Loading...' : 'Choose a client'}
                data={clients}
                value={rule.clientId}
                onChange={(v) => setThen({ clientId: v }, 'clientId')}
                error={err('then.clientId')}
                searchable
                nothingFoundMessage="No such client"
                comboboxProps={{ withinPortal: true }}
              />
            )}
            {rule.clientMode === 'field' && (
              <FieldInput
                label="Field with the client’s name"
                placeholder="tags.customer"
                value={rule.clientFrom}
                onChange={(v) => setThen({ clientFrom: v }, 'clientFrom')}
                error={err('then.clientFrom')}
                fields={fields}
              />
            )}
            <Select
              label="Escalation policy"
              description="Who is paged for the alert. Empty: the integration’s, the client’s or the default."
              placeholder={policiesLoading ? 'Loading...' : 'Unchanged'}
              data={policies}
              value={rule.escalationPolicyId}
              onChange={(v) => setThen({ escalationPolicyId: v }, 'escalationPolicyId')}
              error={err('then.escalationPolicyId')}
              clearable
              searchable
              nothingFoundMessage="No such policy"
              comboboxProps={{ withinPortal: true }}
            />
            <Group gap="xs" align="flex-start" wrap="wrap">
              <NativeSelect
                label="Priority"
                value={rule.priority}
                onChange={(e) => setThen({ priority: e.currentTarget.value as AlertPriority | '' }, 'priority')}
                data={[{ value: '', label: 'Unchanged' }, ...ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))]}
                error={err('then.priority')}
                style={{ flex: '0 1 10rem' }}
              />
              <TextInput
                label="Dedup key"
                placeholder="{{tags.instance}}-{{title}}"
                description="Empty: unchanged. {{field}} inserts a field."
                value={rule.dedupKey}
                onChange={(e) => setThen({ dedupKey: e.currentTarget.value }, 'dedupKey')}
                error={err('then.dedupKey')}
                maxLength={RULE_LIMITS.template}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                style={{ flex: '1 1 14rem', minWidth: 0 }}
                autoComplete="off"
                spellCheck={false}
              />
            </Group>
          </>
        )}
        {thenError && (
          <Text size="sm" c="red" data-testid="rule-then-error">
            {thenError}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
