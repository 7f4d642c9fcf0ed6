import { useState } from 'react';
import { NativeSelect, NumberInput } from '@mantine/core';

const UNITS = [
  { value: '1', label: 'minutes' },
  { value: '60', label: 'hours' },
  { value: '1440', label: 'days' },
];

/** The largest unit a number of minutes is a whole number of (a day's 1440 minutes show as 1 day). */
export function unitOf(minutes: number): number {
  if (minutes > 0 && minutes % 1440 === 0) return 1440;
  if (minutes > 0 && minutes % 60 === 0) return 60;
  return 1;
}

/**
 * A duration in whole minutes, typed as a number of minutes, hours or days (the unit beside the number). Reports null
 * while the number is empty or not a whole number of minutes (the server says why on submit).
 */
export function DurationInput({ label, description, initialMinutes, min, onChange, error }: { label: string; description: string; initialMinutes: number; min: number; onChange: (minutes: number | null) => void; error?: string }) {
  const [unit, setUnit] = useState(unitOf(initialMinutes));
  const [amount, setAmount] = useState<number | string>(initialMinutes / unitOf(initialMinutes));
  const emit = (a: number | string, u: number) => onChange(typeof a === 'number' && Number.isInteger(Math.round(a * u * 1000) / 1000) ? Math.round(a * u) : null);
  const unitSelect = (
    <NativeSelect
      aria-label={`${label}: unit`}
      data={UNITS}
      value={String(unit)}
      onChange={(e) => {
        const u = Number(e.currentTarget.value);
        setUnit(u);
        emit(amount, u);
      }}
      rightSectionWidth={24}
      styles={{ input: { width: 104, borderTopLeftRadius: 0, borderBottomLeftRadius: 0, marginRight: -2 } }}
    />
  );
  return (
    <NumberInput
      label={label}
      description={description}
      value={amount}
      min={min}
      allowNegative={false}
      decimalScale={2}
      onChange={(v) => {
        setAmount(v);
        emit(v, unit);
      }}
      error={error}
      withAsterisk
      rightSection={unitSelect}
      rightSectionWidth={104}
      hideControls
    />
  );
}
