import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';

/** An action on a record's card ("Edit", "Send test event", a red "Delete"): a small button led by its icon. */
export function CardButton({
  icon: Icon,
  variant = 'subtle',
  color,
  onClick,
  loading,
  'aria-label': ariaLabel,
  children,
}: {
  icon: TablerIcon;
  variant?: 'subtle' | 'default' | 'light';
  color?: string;
  onClick: () => void;
  loading?: boolean;
  'aria-label'?: string;
  children: ReactNode;
}) {
  return (
    <Button size="xs" variant={variant} color={color} leftSection={<Icon size={14} />} onClick={onClick} loading={loading} aria-label={ariaLabel}>
      {children}
    </Button>
  );
}
