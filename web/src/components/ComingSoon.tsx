import { Text } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { StatePanel } from './AccessState.tsx';
import { PageHeader } from './PageHeader.tsx';

/** Body of a page whose feature has not landed yet; the route, guard and navigation are real. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <StatePanel icon={<IconTools />} title="Coming soon">
        <Text c="dimmed">This part of Alertdesk is being built.</Text>
      </StatePanel>
    </>
  );
}
