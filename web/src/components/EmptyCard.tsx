import type { ReactNode } from 'react';
import { Paper, Text } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';

/**
 * What a list shows when it has nothing yet: a bordered card with the list's icon and the spec's empty text (the test
 * id is the text's). `compact` for a list inside a modal.
 */
export function EmptyCard({ icon: Icon, children, compact = false, 'data-testid': testId }: { icon: TablerIcon; children: ReactNode; compact?: boolean; 'data-testid': string }) {
  return (
    <Paper withBorder p={compact ? 'lg' : 'xl'} radius="md" ta="center">
      <Icon size={compact ? 28 : 32} stroke={1.5} aria-hidden />
      <Text size={compact ? 'sm' : undefined} mt={compact ? undefined : 'xs'} c="dimmed" data-testid={testId}>
        {children}
      </Text>
    </Paper>
  );
}
