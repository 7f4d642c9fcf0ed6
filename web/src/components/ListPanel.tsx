import { Fragment, type ReactNode } from 'react';
import { Stack } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import { EmptyCard } from './EmptyCard.tsx';
import { PanelHeader } from './PanelHeader.tsx';

export interface ListPanelProps<T extends { id: string }> {
  /** The header (PanelHeader's title, description and action). */
  header: { title?: ReactNode; description: ReactNode; action?: ReactNode };
  items: T[];
  /** What shows when there is no item: the list's icon, the spec's text and its test id. */
  empty: { icon: TablerIcon; text: ReactNode; testId: string };
  /** One item's card (keyed by the panel). */
  card: (item: T) => ReactNode;
  'data-testid': string;
  /** The panel's dialogs. */
  children?: ReactNode;
}

/** A tenant's records of one kind as a column of cards (Tenant Admin's tabs): the header, the cards or the empty card, the dialogs. */
export function ListPanel<T extends { id: string }>({ header, items, empty, card, 'data-testid': testId, children }: ListPanelProps<T>) {
  return (
    <Stack gap="md" data-testid={testId}>
      <PanelHeader {...header} />
      {items.length === 0 ? (
        <EmptyCard icon={empty.icon} data-testid={empty.testId}>
          {empty.text}
        </EmptyCard>
      ) : (
        items.map((item) => <Fragment key={item.id}>{card(item)}</Fragment>)
      )}
      {children}
    </Stack>
  );
}
