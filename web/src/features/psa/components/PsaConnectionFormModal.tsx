import { useState } from 'react';
import { SegmentedControl, Switch } from '@mantine/core';
import type { AlertPriority } from '../../../../../contract/alerts.ts';
import { PSA_MSG, PSA_NAMES, PSA_SECRET_FIELDS, PSA_TYPES, type PsaConnection, type PsaConnectionInput, type PsaType } from '../../../../../contract/psa.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { NameField } from '../../../components/NameField.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useCreatePsaConnection, useUpdatePsaConnection } from '../api/psa-connections.ts';
import { PSA_UI, SETTINGS_FIELDS } from './psa-texts.ts';
import { DEFAULT_RULES, PsaRulesFields, type RulesValue } from './PsaRulesFields.tsx';
import { PsaSettingsFields } from './PsaSettingsFields.tsx';

const initialValues = (type: PsaType, editing: PsaConnection | null): Record<string, string> =>
  Object.fromEntries(SETTINGS_FIELDS[type].map((f) => [f.key, f.kind === 'secret' ? '' : editing ? String(editing.settings[f.key] ?? '') : (f.initial ?? '')]));

const initialPriorities = (editing: PsaConnection | null): Partial<Record<AlertPriority, string>> =>
  Object.fromEntries(Object.entries((editing?.settings.priorities as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)]));

const isWhole = (v: string) => /^\d{1,15}$/.test(v) && Number(v) > 0;

/**
 * The settings as the contract takes them, and the fields the browser finds wrong first (the server says the rest):
 * ids as numbers, empty secrets left out (an update keeps the stored ones), empty priority names left to the default.
 */
function buildSettings(type: PsaType, values: Record<string, string>, priorities: Partial<Record<AlertPriority, string>>, editing: PsaConnection | null) {
  const errors: Record<string, string> = {};
  const settings: Record<string, unknown> = {};
  for (const f of SETTINGS_FIELDS[type]) {
    const v = (values[f.key] ?? '').trim();
    if (f.kind === 'secret') {
      if (v) settings[f.key] = v;
      else if (!editing?.secretsSet[f.key]) errors[`settings.${f.key}`] = PSA_MSG.secretRequired;
    } else if (!v) errors[`settings.${f.key}`] = PSA_MSG.required;
    else if (f.kind === 'id') {
      if (isWhole(v)) settings[f.key] = Number(v);
      else errors[`settings.${f.key}`] = PSA_UI.wholeNumber;
    } else settings[f.key] = v;
  }
  const mapped: Record<string, string | number> = {};
  for (const [p, raw] of Object.entries(priorities)) {
    const v = (raw ?? '').trim();
    if (!v) continue;
    if (type === 'connectwise') mapped[p] = v;
    else if (isWhole(v)) mapped[p] = Number(v);
    else errors[`settings.priorities.${p}`] = PSA_UI.wholeNumber;
  }
  if (Object.keys(mapped).length) settings.priorities = mapped;
  return { settings, errors };
}

/** New PSA connection (ConnectWise PSA, Autotask or HaloPSA) or Edit PSA connection. */
export function PsaConnectionFormModal({ tenantId, editing, onClose }: { tenantId: string; editing: PsaConnection | null; onClose: () => void }) {
  const create = useCreatePsaConnection(tenantId);
  const update = useUpdatePsaConnection(tenantId);
  const [type, setType] = useState<PsaType>(editing?.type ?? 'connectwise');
  const [name, setName] = useState(editing?.name ?? '');
  const [values, setValues] = useState(() => initialValues(type, editing));
  const [priorities, setPriorities] = useState(() => initialPriorities(editing));
  const [rules, setRules] = useState<RulesValue>(editing?.rules ?? DEFAULT_RULES);
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  // A field's error goes once the field is changed.
  const clear = (key: string) => setErrors((e) => (e[key] ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)) : e));

  const changeType = (t: PsaType) => {
    setType(t);
    setValues(initialValues(t, null));
    setPriorities({});
    setErrors({});
  };

  const submit = () => {
    setFailure(null);
    const { settings, errors: local } = buildSettings(type, values, priorities, editing);
    if (!name.trim()) local.name = PSA_MSG.nameRequired;
    if (rules.priorities.length === 0) local['rules.priorities'] = PSA_MSG.prioritiesRequired;
    if (rules.triggerMode === 'unacknowledged_after' && !rules.unacknowledgedMinutes) local['rules.unacknowledgedMinutes'] = PSA_MSG.minutesRequired;
    if (Object.keys(local).length) return setErrors(local);
    setErrors({});
    const body = { type, name: name.trim(), enabled, settings, rules } as PsaConnectionInput;
    const onError = (err: unknown) => {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      setFailure(err instanceof Error ? err.message : String(err));
    };
    if (editing) update.mutate({ id: editing.id, body }, { onSuccess: onClose, onError });
    else create.mutate(body, { onSuccess: onClose, onError });
  };

  const secretsSet = editing ? editing.secretsSet : Object.fromEntries(PSA_SECRET_FIELDS[type].map((k) => [k, false]));
  return (
    <FormModal
      title={editing ? 'Edit PSA connection' : 'New PSA connection'}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      failureTestId="psa-form-failure"
      submitLabel={editing ? 'Save' : 'Create connection'}
      submitting={create.isPending || update.isPending}
      data-testid="psa-form"
    >
      {!editing && (
        <SegmentedControl
          aria-label="PSA"
          fullWidth
          value={type}
          onChange={(v) => changeType(v as PsaType)}
          data={PSA_TYPES.map((t) => ({ value: t, label: PSA_NAMES[t] }))}
          data-testid="psa-type"
        />
      )}
      <NameField placeholder={`${PSA_NAMES[type]} (production)`} value={name} onChange={(v) => (setName(v), clear('name'))} error={errors.name} />
      <PsaSettingsFields
        type={type}
        values={values}
        onChange={(k, v) => (setValues((s) => ({ ...s, [k]: v })), clear(`settings.${k}`))}
        priorities={priorities}
        onPriority={(p, v) => (setPriorities((s) => ({ ...s, [p]: v })), clear(`settings.priorities.${p}`))}
        secretsSet={secretsSet}
        errors={errors}
      />
      <PsaRulesFields tenantId={tenantId} connectionId={editing?.id ?? null} psaName={PSA_NAMES[type]} value={rules} onChange={(r) => (setRules(r), clear('rules.priorities'), clear('rules.unacknowledgedMinutes'), clear('rules.catchAllCompanyId'))} errors={errors} />
      {editing && <Switch label="Enabled" description="A disabled connection opens no ticket and updates none." checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />}
    </FormModal>
  );
}
