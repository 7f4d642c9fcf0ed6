import { useRef, useState } from 'react';
import { Alert, Button, Checkbox, Fieldset, Group, List, Modal, MultiSelect, NumberInput, Radio, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import {
  CHANNEL_LABELS,
  ESCALATION_CHANNELS,
  ESCALATION_DEFAULTS,
  ESCALATION_MSG,
  ESCALATION_NOTIFY,
  ESCALATION_TIMING_HELP,
  EscalationPolicyInput,
  LEVELS,
  NOTIFY_LABELS,
  type EscalationChannel,
  type EscalationNotify,
  type EscalationPolicy,
  type EscalationPolicyInputBody,
  type LevelKey,
} from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { DESTINATION_MSG } from '../../../../../contract/destinations.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useReachability } from '../api/reachability.ts';
import { PolicyReachWarning } from './PolicyReachWarning.tsx';
import { useSavePolicy } from '../api/policies.ts';
import { destinationLabel, useLevelDestinations } from '../api/level-destinations.ts';
import { LEVEL_LABELS } from './PolicyCard.tsx';

const PRIORITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
type Priority = (typeof PRIORITIES)[number];
type Minutes = number | string;

interface LevelValues {
  userIds: string[];
  scheduleIds: string[];
  notify: EscalationNotify;
  notificationChannels: EscalationChannel[];
  timeAfterPrevious: Minutes;
  /** Issue 29: destinations posted to when the level fires. */
  destinationIds: string[];
}
interface FormValues {
  name: string;
  description: string;
  isDefault: boolean;
  times: Record<Priority, Minutes>;
  levels: Record<LevelKey, LevelValues>;
}

export interface Choice {
  value: string;
  label: string;
}

function initialValues(policy: EscalationPolicy | null, opts: { firstPolicy: boolean; knownUsers: Set<string> | null; knownSchedules: Set<string> | null }): FormValues {
  const times = policy?.escalationTimes ?? ESCALATION_DEFAULTS.escalationTimes;
  // 0 and null are what an empty input became: show them empty again.
  const shown = (m: number | null) => (m ? m : '');
  const keep = (ids: string[], known: Set<string> | null) => (known ? ids.filter((id) => known.has(id)) : ids);
  const level = (key: LevelKey): LevelValues => {
    const l = policy?.[key];
    return {
      userIds: keep(l?.userIds ?? [], opts.knownUsers),
      scheduleIds: keep(l?.scheduleIds ?? [], opts.knownSchedules),
      notify: l?.notify ?? 'primary',
      notificationChannels: l ? [...l.notificationChannels] : [...ESCALATION_DEFAULTS.notificationChannels[key]],
      timeAfterPrevious: l && 'timeAfterPrevious' in l ? l.timeAfterPrevious : key === 'level_1' ? '' : ESCALATION_DEFAULTS.timeAfterPrevious[key],
      destinationIds: [...(l?.destinationIds ?? [])],
    };
  };
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    // A tenant's first policy is offered as its default.
    isDefault: policy?.isDefault ?? opts.firstPolicy,
    times: Object.fromEntries(PRIORITIES.map((p) => [p, shown(times[p])])) as Record<Priority, Minutes>,
    levels: { level_1: level('level_1'), level_2: level('level_2'), level_3: level('level_3') },
  };
}

function toBody(v: FormValues): EscalationPolicyInputBody {
  const level = (key: LevelKey) => {
    const { timeAfterPrevious, ...rest } = v.levels[key];
    return key === 'level_1' ? rest : { ...rest, timeAfterPrevious };
  };
  return { name: v.name, description: v.description, isDefault: v.isDefault, escalationTimes: v.times, level_1: level('level_1'), level_2: level('level_2'), level_3: level('level_3') };
}

/** A field's key in the error map: its path up to the first list index (`level_1.notificationChannels.0` → `level_1.notificationChannels`). */
const fieldKey = (path: ReadonlyArray<PropertyKey>) => {
  const parts: string[] = [];
  for (const p of path) {
    if (typeof p === 'number' || /^\d+$/.test(String(p))) break;
    parts.push(String(p));
  }
  return parts.join('.') || 'form';
};

/** Create Policy and Edit Policy: every field of spec section 3, with member and schedule pickers per level. */
export function PolicyFormModal(props: {
  tenantId: string;
  policy: EscalationPolicy | null;
  opened: boolean;
  firstPolicy: boolean;
  members: Choice[];
  schedules: Choice[];
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.policy ? 'Edit Policy' : 'Create Policy'} size="xl" centered fullScreen={phone} data-testid="policy-form">
      {props.opened && <PolicyForm key={props.policy?.id ?? 'new'} {...props} />}
    </Modal>
  );
}

function PolicyForm({ tenantId, policy, firstPolicy, members, schedules, onClose }: { tenantId: string; policy: EscalationPolicy | null; firstPolicy: boolean; members: Choice[]; schedules: Choice[]; onClose: () => void }) {
  const knownUsers = new Set(members.map((m) => m.value));
  const knownSchedules = new Set(schedules.map((s) => s.value));
  const [values, setValues] = useState<FormValues>(() => initialValues(policy, { firstPolicy, knownUsers, knownSchedules }));
  // People (or schedules) taken off because they are gone: saving makes it stick, so say so.
  const [staleRemoved] = useState(() => {
    if (!policy) return false;
    return LEVELS.some((l) => policy[l].userIds.some((id) => !knownUsers.has(id)) || policy[l].scheduleIds.some((id) => !knownSchedules.has(id)));
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const save = useSavePolicy(tenantId);
  const reach = useReachability(tenantId);
  const destinations = useLevelDestinations(tenantId);
  const destinationChoices = (destinations.data ?? []).map((d) => ({ value: d.id, label: destinationLabel(d) }));
  const formRef = useRef<HTMLFormElement>(null);

  const clear = (key: string) =>
    setErrors((e) => {
      if (!(key in e)) return e;
      const { [key]: _cleared, ...rest } = e;
      return rest;
    });
  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    clear(field);
  };
  const setTime = (p: Priority, value: Minutes) => {
    setValues((v) => ({ ...v, times: { ...v.times, [p]: value } }));
    clear(`escalationTimes.${p}`);
  };
  const setLevel = <K extends keyof LevelValues>(level: LevelKey, field: K, value: LevelValues[K]) => {
    setValues((v) => ({ ...v, levels: { ...v.levels, [level]: { ...v.levels[level], [field]: value } } }));
    clear(`${level}.${String(field)}`);
    // Level 1's "at least one" is met by a schedule as well: its message sits on the users.
    if (level === 'level_1' && field === 'scheduleIds') clear('level_1.userIds');
  };
  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    // A destination deleted since the policy was saved is skipped when the level fires: saving drops it.
    const known = destinations.data ? new Set(destinations.data.map((d) => d.id)) : null;
    const live = (l: LevelValues) => ({ ...l, destinationIds: known ? l.destinationIds.filter((id) => known.has(id)) : l.destinationIds });
    const body = toBody({ ...values, levels: { level_1: live(values.levels.level_1), level_2: live(values.levels.level_2), level_3: live(values.levels.level_3) } });
    const parsed = EscalationPolicyInput.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[fieldKey(issue.path)] ??= issue.message;
      return showErrors(found);
    }
    try {
      await save.mutateAsync({ policyId: policy?.id ?? null, body });
      notifications.show({ color: 'green', message: policy ? ESCALATION_MSG.updated : ESCALATION_MSG.created });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length) {
        const found: Record<string, string> = {};
        for (const [path, message] of Object.entries(err.fields)) found[fieldKey(path.split('.'))] ??= message;
        showErrors(found);
      } else setFailure(err);
    }
  };

  return (
    <form onSubmit={submit} noValidate ref={formRef}>
      <Stack gap="md">
        <TextInput label="Policy name" withAsterisk data-autofocus value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} />
        <Textarea label="Description" autosize minRows={2} maxRows={4} value={values.description} onChange={(e) => set('description', e.currentTarget.value)} error={errors.description} />
        <Switch
          label="Default policy"
          description="Pages for alerts whose integration and client name no policy. Only one policy is the default: saving this one as default takes the mark off the other."
          checked={values.isDefault}
          onChange={(e) => set('isDefault', e.currentTarget.checked)}
        />

        <Alert variant="light" color="blue" icon={<IconInfoCircle />} title="How escalation timing works" data-testid="policy-timing-help">
          <List size="sm" spacing={4}>
            {ESCALATION_TIMING_HELP.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </Alert>

        <Fieldset legend="Escalation times (minutes until overdue)">
          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
            {PRIORITIES.map((p) => (
              <NumberInput
                key={p}
                label={PRIORITY_LABELS[p]}
                placeholder={ESCALATION_MSG.noTarget}
                min={1}
                max={10_080}
                allowDecimal={false}
                allowNegative={false}
                value={values.times[p]}
                onChange={(v) => setTime(p, v)}
                error={errors[`escalationTimes.${p}`]}
              />
            ))}
          </SimpleGrid>
        </Fieldset>

        {staleRemoved && (
          <Alert color="yellow" variant="light" data-testid="policy-stale-removed">
            {ESCALATION_MSG.staleMembersRemoved}
          </Alert>
        )}

        {LEVELS.map((level) => {
          const l = values.levels[level];
          return (
            <Fieldset key={level} legend={LEVEL_LABELS[level]} data-testid={`policy-form-${level}`}>
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <MultiSelect
                    label="Users"
                    description={level === 'level_1' ? 'Members paged at once (or a schedule, or both)' : 'Members paged at this level'}
                    withAsterisk={level === 'level_1' && l.scheduleIds.length === 0}
                    placeholder={l.userIds.length ? undefined : 'Choose members'}
                    data={members}
                    value={l.userIds}
                    onChange={(v) => setLevel(level, 'userIds', v)}
                    error={errors[`${level}.userIds`]}
                    searchable
                    clearable
                    nothingFoundMessage="No member found"
                    comboboxProps={{ withinPortal: true }}
                  />
                  <MultiSelect
                    label="On-call schedules"
                    description="Whoever is on call then is paged"
                    placeholder={l.scheduleIds.length ? undefined : schedules.length ? 'Choose schedules' : 'No schedules yet'}
                    data={schedules}
                    value={l.scheduleIds}
                    onChange={(v) => setLevel(level, 'scheduleIds', v)}
                    error={errors[`${level}.scheduleIds`]}
                    searchable
                    clearable
                    comboboxProps={{ withinPortal: true }}
                  />
                </SimpleGrid>
                {l.scheduleIds.length > 0 && (
                  <Radio.Group
                    label="On these schedules, page"
                    value={l.notify}
                    onChange={(v) => setLevel(level, 'notify', v as EscalationNotify)}
                    error={errors[`${level}.notify`]}
                    data-testid={`policy-notify-${level}`}
                  >
                    <Group gap="md" mt={6}>
                      {ESCALATION_NOTIFY.map((n) => (
                        <Radio key={n} value={n} label={NOTIFY_LABELS[n]} />
                      ))}
                    </Group>
                  </Radio.Group>
                )}
                <Group gap="lg" align="flex-end" wrap="wrap">
                  <Checkbox.Group
                    label="Notification channels"
                    value={l.notificationChannels}
                    onChange={(v) => setLevel(level, 'notificationChannels', v as EscalationChannel[])}
                    error={errors[`${level}.notificationChannels`]}
                  >
                    <Group gap="md" mt={6}>
                      {ESCALATION_CHANNELS.map((c) => (
                        <Checkbox key={c} value={c} label={CHANNEL_LABELS[c]} />
                      ))}
                    </Group>
                  </Checkbox.Group>
                  {level !== 'level_1' && (
                    <NumberInput
                      label={`Minutes after ${level === 'level_2' ? 'Level 1' : 'Level 2'}`}
                      min={1}
                      max={10_080}
                      allowDecimal={false}
                      allowNegative={false}
                      w={200}
                      value={l.timeAfterPrevious}
                      onChange={(v) => setLevel(level, 'timeAfterPrevious', v)}
                      error={errors[`${level}.timeAfterPrevious`]}
                    />
                  )}
                </Group>
                {/* Disabled and never fetched: not someone who manages destinations. */}
                {!(destinations.isPending && destinations.fetchStatus === 'idle') ? (
                  <MultiSelect
                    label={DESTINATION_MSG.levelPostsLabel}
                    description={DESTINATION_MSG.levelPostsHelp}
                    placeholder={destinations.isPending ? 'Loading destinations…' : destinationChoices.length ? (l.destinationIds.length ? undefined : 'Choose destinations') : DESTINATION_MSG.levelPostsNone}
                    disabled={destinations.isPending || (destinationChoices.length === 0 && !destinations.isError)}
                    data={destinationChoices}
                    value={l.destinationIds.filter((id) => !destinations.data || destinations.data.some((d) => d.id === id))}
                    onChange={(v) => setLevel(level, 'destinationIds', v)}
                    error={errors[`${level}.destinationIds`] ?? (destinations.isError ? 'Destinations could not be loaded' : undefined)}
                    searchable
                    clearable
                    comboboxProps={{ withinPortal: true }}
                    data-testid={`policy-destinations-${level}`}
                  />
                ) : null}
                <PolicyReachWarning userIds={l.userIds} channels={l.notificationChannels} reach={reach.data} />
              </Stack>
            </Fieldset>
          );
        })}

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
            {policy ? 'Save Changes' : ESCALATION_MSG.createPolicy}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
