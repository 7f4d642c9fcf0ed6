import { Box, Pagination, type PaginationProps } from '@mantine/core';

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** Page buttons with names a screen reader can say ("Page 3", "Next page"), in a navigation landmark of their own. */
export function Pager(props: PaginationProps) {
  return (
    <Box component="nav" aria-label="Pages">
      <Pagination
        size="sm"
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        getControlProps={(c) => ({ 'aria-label': CONTROL_LABELS[c] })}
        {...props}
      />
    </Box>
  );
}
