import { useState } from 'react';
import { Button, Group, Modal, NumberInput, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { MSG } from '../../../../../contract/messages.ts';
import { PRICING_MSG, type PricingSettings } from '../../../../../contract/pricing.ts';
import { useUpdatePricingSettings } from '../api/update-pricing-settings.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';

const isPercent = (x: number | string) => typeof x === 'number' && x >= 0 && x <= 100;

/** Edit Settings: currency, billing cycle, yearly discount and tax. Rendered only while open. */
export function PricingSettingsModal({ settings, onClose }: { settings: PricingSettings; onClose: () => void }) {
  const [v, setV] = useState({
    currency: settings.currency,
    billingCycle: settings.billingCycle,
    showYearlyDiscount: settings.showYearlyDiscount,
    yearlyDiscountPercentage: settings.yearlyDiscountPercentage as number | string,
    taxRate: settings.taxRate as number | string,
    taxInclusive: settings.taxInclusive,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useUpdatePricingSettings();
  const server = serverFieldErrors(save.error);
  const err = (f: string) => errors[f] ?? server[f];
  const set = <K extends keyof typeof v>(key: K, value: (typeof v)[K]) => {
    setV((old) => ({ ...old, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const e: Record<string, string> = {};
    if (!/^[A-Za-z]{3}$/.test(v.currency.trim())) e.currency = PRICING_MSG.currencyInvalid;
    if (!isPercent(v.yearlyDiscountPercentage)) e.yearlyDiscountPercentage = PRICING_MSG.percentageInvalid;
    if (!isPercent(v.taxRate)) e.taxRate = PRICING_MSG.percentageInvalid;
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    try {
      await save.mutateAsync({
        ...v,
        currency: v.currency.trim().toUpperCase(),
        yearlyDiscountPercentage: v.yearlyDiscountPercentage as number,
        taxRate: v.taxRate as number,
      });
      onClose();
    } catch {
      // Shown from save.error.
    }
  };

  return (
    <Modal opened onClose={onClose} title="Pricing Settings" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {save.error && <FailureAlert title={MSG.pricingSettingsFailed} error={save.error} />}
          <TextInput label="Currency" maxLength={3} value={v.currency} onChange={(e) => set('currency', e.currentTarget.value)} error={err('currency')} data-autofocus />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Billing cycle
            </Text>
            <SegmentedControl
              value={v.billingCycle}
              onChange={(x) => set('billingCycle', x as 'monthly' | 'yearly')}
              data={[
                { value: 'monthly', label: 'Monthly' },
                { value: 'yearly', label: 'Yearly' },
              ]}
            />
          </Stack>
          <Switch label="Show yearly discount" checked={v.showYearlyDiscount} onChange={(e) => set('showYearlyDiscount', e.currentTarget.checked)} />
          <NumberInput
            label="Yearly discount (%)"
            min={0}
            max={100}
            value={v.yearlyDiscountPercentage}
            onChange={(x) => set('yearlyDiscountPercentage', x)}
            error={err('yearlyDiscountPercentage')}
          />
          <NumberInput label="Tax rate (%)" min={0} max={100} decimalScale={2} value={v.taxRate} onChange={(x) => set('taxRate', x)} error={err('taxRate')} />
          <Switch label="Prices include tax" checked={v.taxInclusive} onChange={(e) => set('taxInclusive', e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save Settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
