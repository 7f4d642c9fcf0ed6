import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A report's table: a header row and body rows, scrolling sideways on a narrow window, long ones scrolling down. */
export function FigureTable({ header, rows, caption, maxHeight, testId }: { header: string[]; rows: ReactNode[][]; caption: string; maxHeight?: number; testId?: string }) {
  return (
    // Wide tables (six columns and more) in a smaller type, so they fit beside their chart on a laptop.
    <Table.ScrollContainer minWidth={header.length * (header.length > 5 ? 62 : 90)} maxHeight={maxHeight}>
      <Table striped highlightOnHover withTableBorder fz={header.length > 5 ? 'xs' : 'sm'} horizontalSpacing={header.length > 5 ? 6 : 'xs'} stickyHeader={!!maxHeight} aria-label={caption} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {header.map((h, i) => (
              <Table.Th key={h} ta={i === 0 ? 'left' : 'right'}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              {r.map((c, j) => (
                <Table.Td key={j} ta={j === 0 ? 'left' : 'right'}>
                  {c}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
