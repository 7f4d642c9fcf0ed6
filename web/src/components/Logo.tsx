import { Group, Text } from '@mantine/core';
import { InternalLink } from './InternalLink.tsx';

/** The brand mark; `compact` hides the word on phone widths where the header is crowded. */
export function Logo({ to = '/app/dashboard', compact = false }: { to?: string; compact?: boolean }) {
  return (
    <InternalLink to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Alertdesk home">
      <Group gap={8} wrap="nowrap">
        {/* The mark of /favicon.svg, drawn in the page: no request for it (issue 33: a first visit's requests). */}
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width={28} height={28} aria-hidden focusable="false">
          <rect width="32" height="32" rx="8" fill="#e8590c" />
          <path d="M16 6l10 18H6z" fill="#fff" />
          <rect x="15" y="12" width="2" height="6" fill="#e8590c" />
          <rect x="15" y="20" width="2" height="2" fill="#e8590c" />
        </svg>
        <Text fw={800} size="lg" visibleFrom={compact ? 'xs' : undefined}>
          Alertdesk
        </Text>
      </Group>
    </InternalLink>
  );
}
