import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

/** A panel's title and the line under it that says what the panel holds; `sub` for a section inside a modal. */
export function PanelTitle({ title, description, sub = false }: { title: ReactNode; description: ReactNode; sub?: boolean }) {
  return (
    <div>
      <Title order={sub ? 3 : 2} size={sub ? 'h5' : 'h3'}>
        {title}
      </Title>
      <Text size={sub ? 'xs' : 'sm'} c="dimmed">
        {description}
      </Text>
    </div>
  );
}

/**
 * The top of a list panel or tab: its title and description (only the description where the page's tab already names
 * it) and, on the right, its action (usually an AddButton; none for those who may not change the list).
 */
export function PanelHeader({ title, description, action }: { title?: ReactNode; description: ReactNode; action?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      {title === undefined ? (
        <Text size="sm" c="dimmed" maw={640}>
          {description}
        </Text>
      ) : (
        <PanelTitle title={title} description={description} />
      )}
      {action}
    </Group>
  );
}
