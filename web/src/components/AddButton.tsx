import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

/** The button that starts a new record of a list ("New integration", "Add Tenant"). */
export function AddButton({ onClick, disabled, children, 'data-testid': testId }: { onClick: () => void; disabled?: boolean; children: ReactNode; 'data-testid'?: string }) {
  return (
    <Button leftSection={<IconPlus size={16} />} onClick={onClick} disabled={disabled} data-testid={testId}>
      {children}
    </Button>
  );
}
