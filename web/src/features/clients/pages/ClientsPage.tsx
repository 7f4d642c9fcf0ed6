import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconPlus, IconSearch, IconUsers } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { CLIENT_MSG, CLIENT_SORTS, CLIENT_STATUSES, type Client, type ClientSort, type ClientStatus } from '../../../../../contract/clients.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { CLIENT_PAGE_SIZE } from '../../../../../contract/plans.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { LoadError, NoTenant, StatePanel } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useClients } from '../api/list-clients.ts';
import { ClientDetailsModal } from '../components/ClientDetailsModal.tsx';
import { ClientFormModal } from '../components/ClientFormModal.tsx';
import { ClientList } from '../components/ClientList.tsx';
import { STATUS_LABELS } from '../components/ClientStatusBadge.tsx';
import { DeleteClientModal } from '../components/DeleteClientModal.tsx';
import { Pager } from '../../../components/Pager.tsx';

const SEARCH_DEBOUNCE_MS = 300;
type Order = 'asc' | 'desc';
type StatusFilter = ClientStatus | 'all';

const STATUS_FILTERS = [{ value: 'all', label: 'All statuses' }, ...CLIENT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];
// The phone layout has no column headers to click, so it sorts with one menu.
const SORT_CHOICES = [
  { value: 'name:asc', label: 'Name (A to Z)' },
  { value: 'name:desc', label: 'Name (Z to A)' },
  { value: 'status:asc', label: 'Status (A to Z)' },
  { value: 'status:desc', label: 'Status (Z to A)' },
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
];

/** List state lives in the URL, so a reload or the back button keeps the filter, search, sort and page. */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const status: StatusFilter = (CLIENT_STATUSES as readonly string[]).includes(params.get('status') ?? '') ? (params.get('status') as ClientStatus) : 'all';
  const sort = (CLIENT_SORTS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as ClientSort) : 'name';
  const order: Order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const search = params.get('q') ?? '';
  const update = (patch: Partial<{ status: StatusFilter; sort: ClientSort; order: Order; page: number; q: string }>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          const isDefault = v === '' || (k === 'status' && v === 'all') || (k === 'page' && v === 1) || (k === 'sort' && v === 'name') || (k === 'order' && v === 'asc');
          if (isDefault) next.delete(k);
          else next.set(k, String(v));
        }
        return next;
      },
      { replace: true },
    );
  // The client whose details are open (`?client=`: the dashboard links a client's name here). Opening is a history
  // entry, so Back closes the details; closing replaces it.
  const detailsId = params.get('client');
  const setDetailsId = (id: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('client', id);
        else next.delete('client');
        return next;
      },
      { replace: !id },
    );
  return { status, sort, order, page, search, update, detailsId, setDetailsId };
}

export function ClientsPage() {
  const { tenant } = useCurrentTenant();
  if (!tenant) return <NoTenant />;
  // Keyed by tenant: switching tenants starts from a clean list and closed modals.
  return <ClientsView key={tenant.id} tenantId={tenant.id} />;
}

function ClientsView({ tenantId }: { tenantId: string }) {
  const { status, sort, order, page, search, update, detailsId, setDetailsId } = useListParams();
  const [searchInput, setSearchInput] = useState(search);
  const [debouncedSearch] = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [form, setForm] = useState<{ opened: boolean; client: Client | null }>({ opened: false, client: null });
  const [toDelete, setToDelete] = useState<Client | null>(null);

  useEffect(() => {
    if (debouncedSearch !== search) update({ q: debouncedSearch, page: 1 });
    // Only a new debounced value should move the URL; `search` follows from it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);

  const query = useClients(tenantId, { status, search, sort, order, page, pageSize: CLIENT_PAGE_SIZE });
  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  // After deleting the last client of the last page, step back to the page that now is the last.
  useEffect(() => {
    if (data && !query.isPlaceholderData && data.items.length === 0 && data.total > 0 && page > totalPages) update({ page: totalPages });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, page, totalPages, query.isPlaceholderData]);

  const onSort = (field: ClientSort) => {
    if (field === sort) update({ order: order === 'asc' ? 'desc' : 'asc', page: 1 });
    else update({ sort: field, order: field === 'createdAt' ? 'desc' : 'asc', page: 1 });
  };
  const openAdd = () => setForm({ opened: true, client: null });
  const openEdit = (client: Client) => setForm({ opened: true, client });
  const filtered = status !== 'all' || search !== '';

  let body;
  if (query.isPending) body = <Loading />;
  else if (query.isError && !data) body = <LoadError message={MSG.clientsLoadFailed} onRetry={() => query.refetch()} />;
  else if (data && data.total === 0)
    body = filtered ? (
      <StatePanel icon={<IconSearch />} title={CLIENT_MSG.noMatches} />
    ) : (
      <StatePanel icon={<IconUsers />} title={CLIENT_MSG.noClients}>
        <Button leftSection={<IconPlus size={16} />} onClick={openAdd}>
          Add Client
        </Button>
      </StatePanel>
    );
  else if (data) {
    const first = (data.page - 1) * data.pageSize + 1;
    body = (
      <Stack gap="md">
        {query.isError && (
          <Alert color="red" icon={<IconAlertCircle />}>
            {MSG.clientsLoadFailed}
          </Alert>
        )}
        <ClientList items={data.items} sort={sort} order={order} onSort={onSort} onOpen={(c) => setDetailsId(c.id)} onEdit={openEdit} onDelete={setToDelete} />
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" data-testid="clients-range">
            {data.items.length ? `Showing ${first}-${first + data.items.length - 1} of ${data.total}` : `${data.total} clients`}
          </Text>
          <Pager total={totalPages} value={Math.min(page, totalPages)} onChange={(p) => update({ page: p })} siblings={1} boundaries={1} hideWithOnePage />
        </Group>
      </Stack>
    );
  }

  return (
    <>
      <PageHeader
        title="Client Management"
        description="The organisations you monitor and respond for."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openAdd}>
            Add Client
          </Button>
        }
      />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
        <Stack gap="md">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              aria-label="Search clients"
              placeholder="Search name, contact or email"
              leftSection={<IconSearch size={16} />}
              rightSection={query.isFetching && !query.isPending ? <Loader size={14} /> : null}
              value={searchInput}
              onChange={(e) => setSearchInput(e.currentTarget.value)}
              style={{ flex: '1 1 240px' }}
              data-testid="clients-search"
            />
            <Select
              aria-label="Status filter"
              data={STATUS_FILTERS}
              value={status}
              onChange={(v) => update({ status: (v ?? 'all') as StatusFilter, page: 1 })}
              allowDeselect={false}
              w={{ base: '100%', xs: 170 }}
              data-testid="clients-status-filter"
            />
            <Select
              hiddenFrom="sm"
              aria-label="Sort clients"
              data={SORT_CHOICES}
              value={`${sort}:${order}`}
              onChange={(v) => {
                const [s, o] = (v ?? 'name:asc').split(':') as [ClientSort, Order];
                update({ sort: s, order: o, page: 1 });
              }}
              allowDeselect={false}
              w={{ base: '100%', xs: 170 }}
            />
          </Group>
          {body}
        </Stack>
      </Paper>
      <ClientFormModal tenantId={tenantId} client={form.client} opened={form.opened} onClose={() => setForm((f) => ({ ...f, opened: false }))} />
      <ClientDetailsModal
        tenantId={tenantId}
        clientId={detailsId}
        // Closed by its Edit button, the focus goes to the form that opens instead, not back to the list behind it.
        returnFocus={!form.opened}
        onClose={() => setDetailsId(null)}
        onEdit={(c) => {
          setDetailsId(null);
          openEdit(c);
        }}
      />
      <DeleteClientModal tenantId={tenantId} client={toDelete} onClose={() => setToDelete(null)} />
    </>
  );
}
