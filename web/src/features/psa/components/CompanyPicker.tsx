import { useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { PsaCompany } from '../../../../../contract/psa.ts';
import { refusalReason } from '../../../lib/api.ts';
import { usePsaCompanies } from '../api/psa-connections.ts';
import { PSA_UI } from './psa-texts.ts';

const labelOf = (c: PsaCompany) => (c.identifier && c.identifier !== c.name ? `${c.name} (${c.identifier})` : c.name);

interface CompanyPickerProps {
  tenantId: string;
  connectionId: string;
  value: string | null;
  /** The chosen company's name, when known (a mapping's stored name). */
  valueName?: string | null;
  onChange: (company: { id: string; name: string } | null) => void;
  label?: string;
  'aria-label'?: string;
  placeholder?: string;
  description?: string;
  error?: string;
  testId?: string;
}

/**
 * A company of the PSA, searched in the PSA as one types (the server asks it: its answer is the list, not filtered
 * again here). The chosen one stays listed whatever the search.
 */
export function CompanyPicker({ tenantId, connectionId, value, valueName, onChange, label, placeholder = 'Search the PSA’s companies', description, error, testId, ...rest }: CompanyPickerProps) {
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const chosenLabel = value ? (valueName ? `${valueName}` : value) : '';
  // The box shows the chosen company's label: that is not a search.
  const query = debounced === chosenLabel || debounced.startsWith(`${chosenLabel} (`) ? '' : debounced;
  const companies = usePsaCompanies(tenantId, connectionId, query, opened);
  const data = (companies.data ?? []).map((c) => ({ value: c.id, label: labelOf(c) }));
  if (value && !data.some((d) => d.value === value)) data.unshift({ value, label: chosenLabel });
  const failed = companies.isError ? `${PSA_UI.companiesFailed}: ${refusalReason(companies.error) ?? companies.error.message}` : undefined;
  return (
    <Select
      label={label}
      aria-label={rest['aria-label']}
      placeholder={placeholder}
      description={description}
      data={data}
      value={value}
      onChange={(v) => {
        const c = companies.data?.find((x) => x.id === v);
        onChange(v ? { id: v, name: c?.name ?? valueName ?? v } : null);
      }}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      onDropdownOpen={() => setOpened(true)}
      nothingFoundMessage={companies.isFetching ? 'Searching…' : (failed ?? 'No company matches')}
      rightSection={companies.isFetching && opened ? <Loader size={14} /> : undefined}
      error={error ?? failed}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
