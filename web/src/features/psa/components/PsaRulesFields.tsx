import { Checkbox, Fieldset, Group, NumberInput, Radio, Stack, TextInput } from '@mantine/core';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import { PSA_LIMITS, type PsaConnection } from '../../../../../contract/psa.ts';
import { CompanyPicker } from './CompanyPicker.tsx';

export type RulesValue = PsaConnection['rules'];

export const DEFAULT_RULES: RulesValue = { priorities: ['critical', 'high'], triggerMode: 'on_trigger', unacknowledgedMinutes: null, catchAllCompanyId: null, recurrence: 'reopen', inboundClose: 'resolve' };

interface RulesFieldsProps {
  tenantId: string;
  /** Set when editing: the catch-all company is chosen among the PSA's companies; a new connection types its id. */
  connectionId: string | null;
  psaName: string;
  value: RulesValue;
  onChange: (v: RulesValue) => void;
  errors: Record<string, string>;
}

/** When a ticket opens, for which alerts and companies, and what a recurrence and a close in the PSA do. */
export function PsaRulesFields({ tenantId, connectionId, psaName, value, onChange, errors }: RulesFieldsProps) {
  const set = (patch: Partial<RulesValue>) => onChange({ ...value, ...patch });
  return (
    <Fieldset legend="Rules" radius="md">
      <Stack gap="sm">
        <Checkbox.Group label="Priorities that open a ticket" value={value.priorities} onChange={(v) => set({ priorities: v as AlertPriority[] })} error={errors['rules.priorities'] || undefined} withAsterisk>
          <Group mt={4} gap="md">
            {ALERT_PRIORITIES.map((p) => (
              <Checkbox key={p} value={p} label={PRIORITY_LABELS[p]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Radio.Group
          label="When"
          value={value.triggerMode}
          onChange={(v) => set({ triggerMode: v as RulesValue['triggerMode'], unacknowledgedMinutes: v === 'unacknowledged_after' ? (value.unacknowledgedMinutes ?? 15) : null })}
        >
          <Stack gap={6} mt={4}>
            <Radio value="on_trigger" label="As soon as the alert triggers" />
            <Radio value="unacknowledged_after" label="Only when nobody acknowledged it within some minutes" />
          </Stack>
        </Radio.Group>
        {value.triggerMode === 'unacknowledged_after' && (
          <NumberInput
            label="Minutes without acknowledgement"
            min={1}
            max={PSA_LIMITS.maxMinutes}
            allowDecimal={false}
            value={value.unacknowledgedMinutes ?? ''}
            onChange={(v) => set({ unacknowledgedMinutes: typeof v === 'number' ? v : null })}
            error={errors['rules.unacknowledgedMinutes'] || undefined}
            maw={340}
            withAsterisk
          />
        )}
        {connectionId ? (
          <CompanyPicker
            tenantId={tenantId}
            connectionId={connectionId}
            label="Catch-all company"
            description={`Alerts of clients not mapped to a company (or of no client) open their ticket here. Empty: no ticket for them, and their timeline says so.`}
            placeholder="None: no ticket for unmapped clients"
            value={value.catchAllCompanyId}
            onChange={(c) => set({ catchAllCompanyId: c?.id ?? null })}
            error={errors['rules.catchAllCompanyId'] || undefined}
            testId="psa-catch-all"
          />
        ) : (
          <TextInput
            label="Catch-all company"
            description={`The ${psaName} company ID (ConnectWise: its identifier) for alerts of clients not mapped to a company; after saving you can pick it from the list. Empty: no ticket for them.`}
            value={value.catchAllCompanyId ?? ''}
            onChange={(e) => set({ catchAllCompanyId: e.currentTarget.value.trim() || null })}
            error={errors['rules.catchAllCompanyId'] || undefined}
            data-testid="psa-catch-all"
          />
        )}
        <Radio.Group label="The same problem again within 24 hours of its ticket's closing" value={value.recurrence} onChange={(v) => set({ recurrence: v as RulesValue['recurrence'] })}>
          <Stack gap={6} mt={4}>
            <Radio value="reopen" label="Reopens the ticket" />
            <Radio value="link" label="Opens a new ticket that names the closed one" />
          </Stack>
        </Radio.Group>
        <Radio.Group label={`A ticket closed in ${psaName}`} value={value.inboundClose} onChange={(v) => set({ inboundClose: v as RulesValue['inboundClose'] })}>
          <Stack gap={6} mt={4}>
            <Radio value="resolve" label="Resolves the alert" />
            <Radio value="acknowledge" label="Acknowledges the alert" />
          </Stack>
        </Radio.Group>
      </Stack>
    </Fieldset>
  );
}
