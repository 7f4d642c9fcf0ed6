import { useRef, useState } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Fieldset, Group, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  APPROVAL_DEFAULTS,
  APPROVAL_LEVEL_LABELS,
  APPROVAL_LEVELS,
  APPROVAL_LIMITS,
  APPROVAL_MSG,
  APPROVAL_TYPE_LABELS,
  APPROVAL_TYPES,
  ApprovalPolicyInput,
  type ApprovalLevelType,
  type ApprovalPolicy,
  type ApprovalPolicyInputBody,
  type ApprovalType,
  SHIFT_SWAP_TYPE,
} from '../../../../../contract/approvals.ts';
import { SHIFT_SWAP_MSG } from '../../../../../contract/shift-swaps.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useSaveApprovalPolicy } from '../api/approval-policies.ts';

export interface Choice {
  value: string;
  label: string;
}

interface LevelValues {
  /** Stable React key while levels are added and removed. */
  uid: number;
  level: ApprovalLevelType;
  approvers: string[];
  timeToExpire: number | string;
}
interface FormValues {
  name: string;
  description: string;
  type: ApprovalType;
  levels: LevelValues[];
  active: boolean;
  autoRejectOnExpire: boolean;
  notifyOnCreate: boolean;
  notifyOnUpdate: boolean;
  delegationEnabled: boolean;
  selfApprovalAllowed: boolean;
}

const FLAGS = [
  { key: 'autoRejectOnExpire', label: 'Reject automatically when a level expires' },
  { key: 'notifyOnCreate', label: 'Notify approvers when a request is created' },
  { key: 'notifyOnUpdate', label: 'Notify the requester when a request is decided' },
  { key: 'delegationEnabled', label: 'Approvers may delegate their decision' },
  { key: 'selfApprovalAllowed', label: 'Requesters may approve their own request at a level where they are the only approver' },
] as const;
const TYPE_CHOICES = APPROVAL_TYPES.map((t) => ({ value: t, label: APPROVAL_TYPE_LABELS[t] }));
let nextUid = 0;
const newLevel = (level: ApprovalLevelType, approvers: string[] = [], timeToExpire: number | string = APPROVAL_DEFAULTS.timeToExpire): LevelValues => ({
  uid: ++nextUid,
  level,
  approvers,
  timeToExpire,
});

function initialValues(policy: ApprovalPolicy | null, known: Set<string>): FormValues {
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    type: policy?.type ?? APPROVAL_DEFAULTS.type,
    // People who left the tenant are taken off (the server would refuse them).
    levels: policy ? policy.levels.map((l) => newLevel(l.level, l.approvers.filter((id) => known.has(id)), l.timeToExpire)) : [newLevel('manager')],
    active: policy?.active ?? true,
    autoRejectOnExpire: policy?.autoRejectOnExpire ?? true,
    notifyOnCreate: policy?.notifyOnCreate ?? true,
    notifyOnUpdate: policy?.notifyOnUpdate ?? true,
    delegationEnabled: policy?.delegationEnabled ?? true,
    selfApprovalAllowed: policy?.selfApprovalAllowed ?? false,
  };
}

function toBody(v: FormValues, editing: boolean): ApprovalPolicyInputBody {
  const { active, ...rest } = v;
  return { ...rest, levels: v.levels.map((l) => ({ level: l.level, approvers: l.approvers, timeToExpire: l.timeToExpire })), ...(editing ? { active } : {}) };
}

/** The fields the form shows errors under; any other path's message goes to the form-wide line. */
const isShownField = (key: string) =>
  /^(name|description|type|autoRejectOnExpire|notifyOnCreate|notifyOnUpdate|delegationEnabled|selfApprovalAllowed|levels|levels\.\d+\.(level|approvers|timeToExpire))$/.test(key);
const placeErrors = (entries: Array<[string, string]>) => {
  const found: Record<string, string> = {};
  for (const [key, message] of entries) found[isShownField(key) ? key : /^levels\.\d+$/.test(key) ? 'levels' : 'form'] ??= message;
  return found;
};

/** Create and Edit Approval Policy: name, description, type, 1 to 3 levels with approvers and hours, and the options. */
export function PolicyFormModal(props: { tenantId: string; policy: ApprovalPolicy | null; opened: boolean; members: Choice[]; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.policy ? 'Edit Approval Policy' : 'Create Approval Policy'} size="xl" centered fullScreen={phone} data-testid="approval-policy-form">
      {props.opened && <PolicyForm key={props.policy?.id ?? 'new'} {...props} />}
    </Modal>
  );
}

function PolicyForm({ tenantId, policy, members, onClose }: { tenantId: string; policy: ApprovalPolicy | null; members: Choice[]; onClose: () => void }) {
  const known = new Set(members.map((m) => m.value));
  const [values, setValues] = useState<FormValues>(() => initialValues(policy, known));
  const [staleRemoved] = useState(() => !!policy?.levels.some((l) => l.approvers.some((id) => !known.has(id))));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const save = useSaveApprovalPolicy(tenantId);
  const formRef = useRef<HTMLFormElement>(null);

  const clear = (...keys: string[]) =>
    setErrors((e) => {
      if (!keys.some((k) => k in e)) return e;
      const next = { ...e };
      for (const k of keys) delete next[k];
      return next;
    });
  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    clear(field);
  };
  const setLevel = <K extends Exclude<keyof LevelValues, 'uid'>>(i: number, field: K, value: LevelValues[K]) => {
    setValues((v) => ({ ...v, levels: v.levels.map((l, j) => (j === i ? { ...l, [field]: value } : l)) }));
    clear(`levels.${i}.${field}`, 'levels');
  };
  // Removing or adding a level moves the others' positions: their errors no longer match, so start afresh.
  const clearLevelErrors = () => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('levels'))));
  const unused = APPROVAL_LEVELS.filter((l) => !values.levels.some((v) => v.level === l));
  const addLevel = () => {
    if (!unused.length) return;
    setValues((v) => ({ ...v, levels: [...v.levels, newLevel(unused[0]!)] }));
    clearLevelErrors();
  };
  const removeLevel = (i: number) => {
    setValues((v) => ({ ...v, levels: v.levels.filter((_, j) => j !== i) }));
    clearLevelErrors();
  };
  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const body = toBody(values, !!policy);
    const parsed = ApprovalPolicyInput.safeParse(body);
    if (!parsed.success) return showErrors(placeErrors(parsed.error.issues.map((i) => [i.path.map(String).join('.'), i.message])));
    try {
      await save.mutateAsync({ policyId: policy?.id ?? null, body });
      notifications.show({ color: 'green', message: policy ? APPROVAL_MSG.policyUpdated : APPROVAL_MSG.policyCreated });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length) showErrors(placeErrors(Object.entries(err.fields)));
      else setFailure(err);
    }
  };

  return (
    <form onSubmit={submit} noValidate ref={formRef}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Name"
            withAsterisk
            data-autofocus
            maxLength={APPROVAL_LIMITS.policyName}
            value={values.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={errors.name}
          />
          <Select
            label="Type"
            data={TYPE_CHOICES}
            value={values.type}
            onChange={(v) => v && set('type', v as ApprovalType)}
            allowDeselect={false}
            error={errors.type}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          withAsterisk
          autosize
          minRows={2}
          maxRows={4}
          maxLength={APPROVAL_LIMITS.policyDescription}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={errors.description}
        />
        {policy && (
          <Switch
            label="Active"
            description="Only an active policy takes new requests; requests already made under it go on either way."
            checked={values.active}
            onChange={(e) => set('active', e.currentTarget.checked)}
          />
        )}

        {staleRemoved && (
          <Alert color="yellow" variant="light" data-testid="approval-policy-stale-removed">
            Approvers who are no longer members of this organization were taken off. Saving makes it stick.
          </Alert>
        )}

        {values.type === SHIFT_SWAP_TYPE && (
          <Alert color="blue" variant="light" data-testid="approval-policy-swap-note">
            {SHIFT_SWAP_MSG.swapFirstLevel}
          </Alert>
        )}

        <Stack gap="sm" data-testid="approval-policy-levels">
          <Group justify="space-between" align="flex-end" gap="xs">
            <div>
              <Text fw={600} size="sm">
                Approval levels
              </Text>
              <Text size="xs" c="dimmed">
                A request passes the levels in order: manager, director, executive. Up to {APPROVAL_DEFAULTS.maxLevels}, each type once.
              </Text>
            </div>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={addLevel} disabled={!unused.length}>
              Add Level
            </Button>
          </Group>
          {errors.levels && (
            <Text c="red" size="sm" role="alert" data-testid="approval-policy-levels-error">
              {errors.levels}
            </Text>
          )}
          {values.levels.map((l, i) => (
            <Fieldset key={l.uid} legend={`Level ${i + 1}`} data-testid={`approval-policy-level-${i}`}>
              <Stack gap="sm">
                <Group gap="sm" align="flex-start" wrap="nowrap">
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" className="grow min-w-0">
                    <Select
                      label="Level"
                      data={APPROVAL_LEVELS.filter((t) => t === l.level || unused.includes(t)).map((t) => ({ value: t, label: APPROVAL_LEVEL_LABELS[t] }))}
                      value={l.level}
                      onChange={(v) => v && setLevel(i, 'level', v as ApprovalLevelType)}
                      allowDeselect={false}
                      error={errors[`levels.${i}.level`]}
                      comboboxProps={{ withinPortal: true }}
                    />
                    <NumberInput
                      label="Time to expire (hours)"
                      min={1}
                      max={APPROVAL_LIMITS.maxHours}
                      allowDecimal={false}
                      allowNegative={false}
                      value={l.timeToExpire}
                      onChange={(v) => setLevel(i, 'timeToExpire', v)}
                      error={errors[`levels.${i}.timeToExpire`]}
                    />
                  </SimpleGrid>
                  <Tooltip label={values.levels.length === 1 ? 'A policy needs at least one level' : 'Remove level'}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mt={26}
                      aria-label={`Remove level ${i + 1}`}
                      disabled={values.levels.length === 1}
                      onClick={() => removeLevel(i)}
                      className="no-shrink"
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <MultiSelect
                  label="Approvers"
                  withAsterisk
                  description="Any one of them decides this level"
                  placeholder={l.approvers.length ? undefined : 'Choose members'}
                  data={members}
                  value={l.approvers}
                  onChange={(v) => setLevel(i, 'approvers', v)}
                  error={errors[`levels.${i}.approvers`]}
                  searchable
                  clearable
                  nothingFoundMessage="No member found"
                  comboboxProps={{ withinPortal: true }}
                />
              </Stack>
            </Fieldset>
          ))}
        </Stack>

        <Fieldset legend="Options">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {FLAGS.map((f) => (
              <Checkbox key={f.key} label={f.label} checked={values[f.key]} onChange={(e) => set(f.key, e.currentTarget.checked)} error={errors[f.key]} />
            ))}
          </SimpleGrid>
        </Fieldset>

        {errors.form && (
          <Text c="red" size="sm" role="alert">
            {errors.form}
          </Text>
        )}
        {failure ? <FailureAlert title={policy ? MSG.policyUpdateFailed : MSG.policyCreateFailed} error={failure} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {policy ? 'Save Changes' : 'Create Policy'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
