import { Select } from '@mantine/core';

/** The tenant's clients to choose from, as a query gives them (lib/client-choices.ts). */
interface ClientChoices {
  isPending: boolean;
  isError: boolean;
  data: { id: string; name: string }[] | undefined;
}

/** The optional client a record's alerts belong to: searchable, clearable, and says so when the clients could not be loaded. */
export function ClientSelect({ clients, description, value, onChange, error }: { clients: ClientChoices; description: string; value: string | null; onChange: (clientId: string | null) => void; error: string | undefined }) {
  return (
    <Select
      label="Client"
      description={description}
      placeholder={clients.isPending ? 'Loading...' : 'No client'}
      data={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
      value={value}
      onChange={onChange}
      error={error || (clients.isError ? 'Clients could not be loaded' : undefined)}
      clearable
      searchable
      comboboxProps={{ withinPortal: true }}
    />
  );
}
