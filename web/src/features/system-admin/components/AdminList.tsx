import { useState, type ReactNode } from 'react';
import { Group, Paper, Stack, Table } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { LoadError } from '../../../components/AccessState.tsx';
import { AddButton } from '../../../components/AddButton.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ListFooter, ListSearch } from './ListControls.tsx';

/** A System Admin list's search (sent once typing pauses) and page; a new search starts again from page 1. */
export function useListSearch() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const onSearch = (value: string) => {
    setSearch(value);
    setPage(1);
  };
  return { search, debounced, page, setPage, onSearch };
}

/** Above a System Admin list: its search box and its Add button. */
export function AdminListToolbar({
  searchLabel,
  searchPlaceholder,
  search,
  onSearch,
  addLabel,
  onAdd,
  addDisabled,
}: {
  searchLabel: string;
  searchPlaceholder: string;
  search: string;
  onSearch: (value: string) => void;
  addLabel: string;
  onAdd: () => void;
  addDisabled?: boolean;
}) {
  return (
    <Group justify="space-between" gap="sm">
      <ListSearch label={searchLabel} placeholder={searchPlaceholder} value={search} onChange={onSearch} />
      <AddButton onClick={onAdd} disabled={addDisabled}>
        {addLabel}
      </AddButton>
    </Group>
  );
}

interface Paged<T> {
  items: T[];
  total: number;
}

export interface AdminListProps<T extends { id: string }> {
  query: { isPending: boolean; isError: boolean; data: Paged<T> | undefined; refetch: () => unknown };
  loadFailed: string;
  /** Shown when the page has no row (no rows yet, or none matching the search). */
  empty: ReactNode;
  noun: [string, string];
  page: number;
  onPage: (page: number) => void;
  /** The test id of a row, on a phone's card and on a table row alike. */
  rowTestId: string;
  /** The table's headings; the last one (Actions) is aligned right. */
  columns: string[];
  minWidth: number;
  cells: (row: T) => ReactNode;
  card: (row: T) => ReactNode;
}

/**
 * A System Admin list: loading, its failure with Retry, its empty state, else its rows (one card each on a phone, a
 * table that would scroll sideways there otherwise) with the count and the pages under them.
 */
export function AdminList<T extends { id: string }>({ query, loadFailed, empty, noun, page, onPage, rowTestId, columns, minWidth, cells, card }: AdminListProps<T>) {
  const phone = useMediaQuery('(max-width: 48em)');
  if (query.isPending) return <Loading />;
  if (query.isError || !query.data) return <LoadError message={loadFailed} onRetry={() => query.refetch()} />;
  if (query.data.items.length === 0) return empty;
  const { items, total } = query.data;
  const list = phone ? (
    <Stack gap="sm">
      {items.map((row) => (
        <Paper key={row.id} withBorder radius="md" p="md" data-testid={rowTestId}>
          {card(row)}
        </Paper>
      ))}
    </Stack>
  ) : (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c, i) => (
                <Table.Th key={c} ta={i === columns.length - 1 ? 'right' : undefined}>
                  {c}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((row) => (
              <Table.Tr key={row.id} data-testid={rowTestId}>
                {cells(row)}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
  return (
    <Stack>
      {list}
      <ListFooter total={total} noun={noun} page={page} onPage={onPage} />
    </Stack>
  );
}
