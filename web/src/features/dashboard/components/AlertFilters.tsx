import { forwardRef, memo, useEffect, useState } from 'react';
import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch, IconX } from '@tabler/icons-react';
import { ACTIVE_STATUSES, ALERT_PRIORITIES, ALERT_SORTS, ASSIGNEE_ME, ASSIGNEE_NONE, PRIORITY_LABELS, SORT_LABELS, STATUS_LABELS } from '../../../../../contract/alerts-text.ts';
import type { ActiveAlertsQuery } from '../../../../../contract/alerts.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { memberLabel, useMemberChoices } from '../../../lib/member-choices.ts';
import type { ListKey } from '../lib/dashboard-params.ts';
import { usePhone } from '../lib/use-phone.ts';

const STATUS_OPTIONS = [{ value: 'all', label: 'All' }, ...ACTIVE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];
const PRIORITY_OPTIONS = [{ value: 'all', label: 'All' }, ...ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))];
const SORT_OPTIONS = ALERT_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }));
// Issue 30: alerts with a ticket in the PSA, or without one.
const TICKET_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'true', label: 'Has ticket' },
  { value: 'false', label: 'No ticket' },
];

type Option = { value: string; label: string };
/** The options, plus the chosen value when a link names one that is not (or no longer) among them, so it still shows. */
const withChosen = (options: Option[], chosen: string | undefined, loaded: boolean, label: string): Option[] =>
  chosen && loaded && !options.some((o) => o.value === chosen) ? [...options, { value: chosen, label }] : options;

interface AlertFiltersProps {
  tenantId: string;
  filter: ActiveAlertsQuery;
  activeFilters: number;
  setFilter: (key: ListKey, value: string | null | undefined) => void;
  clearFilters: () => void;
}

/**
 * Search, filters and order of the active list. On a phone only the search shows until "Filters" is opened. Memoised
 * (its props stay the same while the address does): most of the dashboard's components, it does not render again
 * with every change of the list or the figures.
 */
export const AlertFilters = memo(
  forwardRef<HTMLInputElement, AlertFiltersProps>(function AlertFilters({ tenantId, filter, activeFilters, setFilter, clearFilters }, searchRef) {
    const phone = usePhone();
    const [open, setOpen] = useState(false);
    const clients = useClientChoices(tenantId);
    const members = useMemberChoices(tenantId);
    // The box follows the address (Back, a cleared filter), and writes to it once typing pauses.
    const [search, setSearch] = useState(filter.q ?? '');
    useEffect(() => setSearch(filter.q ?? ''), [filter.q]);
    const writeSearch = useDebouncedCallback((v: string) => setFilter('q', v.trim() || null), 300);

    const clientOptions = withChosen((clients.data ?? []).map((c) => ({ value: c.id, label: c.name })), filter.clientId, !!clients.data, 'Unknown client');
    const assigneeOptions = withChosen(
      [{ value: ASSIGNEE_ME, label: 'Assigned to me' }, { value: ASSIGNEE_NONE, label: 'Unassigned' }, ...(members.data ?? []).map((m) => ({ value: m.id, label: memberLabel(m) }))],
      filter.assignee,
      !!members.data,
      'Unknown member',
    );

    const selects = (
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" verticalSpacing="xs">
        <Select label="Status" data={STATUS_OPTIONS} value={filter.status} onChange={(v) => setFilter('status', v)} allowDeselect={false} data-testid="filter-status" />
        <Select label="Priority" data={PRIORITY_OPTIONS} value={filter.priority} onChange={(v) => setFilter('priority', v)} allowDeselect={false} data-testid="filter-priority" />
        <Select
          label="Client"
          placeholder="All clients"
          data={clientOptions}
          value={filter.clientId ?? null}
          onChange={(v) => setFilter('clientId', v)}
          searchable
          clearable
          nothingFoundMessage="No such client"
          data-testid="filter-client"
        />
        <Select
          label="Assignee"
          placeholder="Anyone"
          data={assigneeOptions}
          value={filter.assignee ?? null}
          onChange={(v) => setFilter('assignee', v)}
          searchable
          clearable
          data-testid="filter-assignee"
        />
        <Select
          label="Ticket"
          data={TICKET_OPTIONS}
          value={filter.hasTicket === undefined ? 'all' : String(filter.hasTicket)}
          onChange={(v) => setFilter('hasTicket', v)}
          allowDeselect={false}
          data-testid="filter-ticket"
        />
        <Select label="Sort" data={SORT_OPTIONS} value={filter.sort} onChange={(v) => setFilter('sort', v)} allowDeselect={false} data-testid="sort" />
      </SimpleGrid>
    );

    return (
      <div>
        <Group gap="sm" align="flex-end" wrap="nowrap" mb="xs">
          <TextInput
            ref={searchRef}
            style={{ flex: 1 }}
            label={phone ? undefined : 'Search'}
            aria-label="Search"
            placeholder={phone ? 'Search' : 'Title, source, description or key (press /)'}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              writeSearch(e.currentTarget.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur();
            }}
            type="search"
            data-testid="filter-search"
          />
          {phone && (
            <Button variant="default" onClick={() => setOpen((o) => !o)} leftSection={<IconAdjustmentsHorizontal size={16} />} aria-expanded={open}>
              Filters{activeFilters > (filter.q ? 1 : 0) ? ` (${activeFilters - (filter.q ? 1 : 0)})` : ''}
            </Button>
          )}
          {!phone && activeFilters > 0 && (
            <Button variant="subtle" onClick={clearFilters} leftSection={<IconX size={16} />} data-testid="clear-filters">
              Clear filters
            </Button>
          )}
        </Group>
        {phone ? (
          open && (
            <div>
              {selects}
              {activeFilters > 0 && (
                <Button variant="subtle" mt="xs" onClick={clearFilters} leftSection={<IconX size={16} />}>
                  Clear filters
                </Button>
              )}
            </div>
          )
        ) : (
          selects
        )}
      </div>
    );
  }),
);
