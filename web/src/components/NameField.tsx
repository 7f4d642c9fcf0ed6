import { TextInput } from '@mantine/core';

/** The Name field that opens a New/Edit form: required, and where the cursor starts. */
export function NameField({
  value,
  onChange,
  error,
  placeholder,
  description,
  'data-testid': testId,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The field's message; an empty one shows none. */
  error: string | undefined;
  placeholder: string;
  description?: string;
  'data-testid'?: string;
}) {
  return <TextInput label="Name" placeholder={placeholder} description={description} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error || undefined} data-autofocus withAsterisk data-testid={testId} />;
}
