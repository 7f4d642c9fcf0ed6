import { useEffect, useState } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { ALERT_PRIORITIES, HISTORY_MSG, HISTORY_STATUSES, PRIORITY_LABELS, STATUS_LABELS } from '../../../../../contract/alerts.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { HISTORY_RANGES, RANGE_LABELS, dayOf, rangeInOrder, type HistoryKey, type HistoryView } from '../lib/history-params.ts';

const STATUS_OPTIONS = [{ value: 'all', label: 'All' }, ...HISTORY_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];
const PRIORITY_OPTIONS = [{ value: 'all', label: 'All' }, ...ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))];
/** Two to a row on a phone (the row's gap between them), `px` wide from the small breakpoint up. */
const half = (px: number) => ({ base: 'calc(50% - var(--mantine-spacing-sm) / 2)', xs: px });
const RANGE_OPTIONS = (['all', ...HISTORY_RANGES] as const).map((r) => ({ value: r, label: RANGE_LABELS[r] }));

interface HistoryFiltersProps {
  tenantId: string;
  view: HistoryView;
  setFilter: (patch: Partial<Record<HistoryKey, string | null>>) => void;
}

/** Search, filters and the resolution range of the history, each kept in the address. */
export function HistoryFilters({ tenantId, view, setFilter }: HistoryFiltersProps) {
  const clients = useClientChoices(tenantId);
  // What is typed shows at once; the address (and the request) follow once typing pauses.
  const [search, setSearch] = useState(view.q ?? '');
  // The address changed by itself (back, a link, Clear filters): show its text, unless it is what is typed, trimmed
  // (a space just typed stays).
  useEffect(() => setSearch((typed) => (typed.trim() === (view.q ?? '') ? typed : (view.q ?? ''))), [view.q]);
  const writeSearch = useDebouncedCallback((v: string) => setFilter({ q: v.trim() || null }), 300);
  const ordered = rangeInOrder(view);
  const chooseRange = (range: string | null) => {
    if (range !== 'custom') return setFilter({ range });
    // A custom range starts as the last 7 days, to be changed from there.
    const today = new Date();
    const weekAgo = new Date(today);
    weekAgo.setDate(today.getDate() - 7);
    setFilter({ range, from: dayOf(weekAgo), to: dayOf(today) });
  };

  return (
    <Group gap="sm" mb="md" align="flex-start" wrap="wrap" data-testid="history-filters">
      <TextInput
        label="Search"
        placeholder="Title, source, description or key"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          writeSearch(e.currentTarget.value);
        }}
        type="search"
        className="grow"
        miw={220}
        data-testid="history-search"
      />
      <Select label="Status" data={STATUS_OPTIONS} value={view.status} onChange={(v) => setFilter({ status: v })} allowDeselect={false} w={half(150)} data-testid="history-status" />
      <Select label="Priority" data={PRIORITY_OPTIONS} value={view.priority} onChange={(v) => setFilter({ priority: v })} allowDeselect={false} w={half(150)} data-testid="history-priority" />
      <Select
        label="Client"
        placeholder="All clients"
        data={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        value={view.clientId ?? null}
        onChange={(v) => setFilter({ clientId: v })}
        searchable
        clearable
        w={half(200)}
        data-testid="history-client"
      />
      <Select label="Resolved" data={RANGE_OPTIONS} value={view.range} onChange={chooseRange} allowDeselect={false} w={half(150)} data-testid="history-range" />
      {view.range === 'custom' && (
        <>
          <TextInput
            type="date"
            label="From"
            value={view.from ?? ''}
            max={view.to}
            onChange={(e) => setFilter({ from: e.currentTarget.value || null })}
            error={ordered ? undefined : HISTORY_MSG.fromAfterTo}
            w={half(160)}
            data-testid="history-from"
          />
          <TextInput
            type="date"
            label="To"
            value={view.to ?? ''}
            min={view.from}
            onChange={(e) => setFilter({ to: e.currentTarget.value || null })}
            error={ordered ? undefined : HISTORY_MSG.toBeforeFrom}
            w={half(160)}
            data-testid="history-to"
          />
        </>
      )}
    </Group>
  );
}
