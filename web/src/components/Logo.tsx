import { Group, Text } from '@mantine/core';
import { InternalLink } from './InternalLink.tsx';

/** The brand mark; `compact` hides the word on phone widths where the header is crowded. */
export function Logo({ to = '/app/dashboard', compact = false }: { to?: string; compact?: boolean }) {
  return (
    <InternalLink to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Alertdesk home">
      <Group gap={8} wrap="nowrap">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <Text fw={800} size="lg" visibleFrom={compact ? 'xs' : undefined}>
          Alertdesk
        </Text>
      </Group>
    </InternalLink>
  );
}
