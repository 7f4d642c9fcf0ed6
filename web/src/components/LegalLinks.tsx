import { Anchor, Group } from '@mantine/core';
import { SUPPORT_MAILTO } from '../lib/contact.ts';
import { InternalLink } from './InternalLink.tsx';

/** Privacy, Terms and Contact: the links every public footer carries. */
export function LegalLinks({ size = 'sm' }: { size?: 'xs' | 'sm' }) {
  return (
    <Group gap="md" component="nav" aria-label="Legal" data-testid="legal-links">
      <Anchor component={InternalLink} to="/privacy" size={size} c="dimmed">
        Privacy
      </Anchor>
      <Anchor component={InternalLink} to="/terms" size={size} c="dimmed">
        Terms
      </Anchor>
      <Anchor href={SUPPORT_MAILTO} size={size} c="dimmed">
        Contact
      </Anchor>
    </Group>
  );
}
