import { Group, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Pager } from '../../../components/Pager.tsx';

export const ADMIN_PAGE_SIZE = 20;

/** The search box above a System Admin list; typing returns the list to its first page. */
export function ListSearch({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      placeholder={placeholder}
      aria-label={label}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: '100%', xs: 280 }}
    />
  );
}

/** Count and pagination under a System Admin list. */
export function ListFooter({ total, noun, page, onPage }: { total: number; noun: [string, string]; page: number; onPage: (page: number) => void }) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {total} {total === 1 ? noun[0] : noun[1]}
      </Text>
      {total > ADMIN_PAGE_SIZE && <Pager total={Math.ceil(total / ADMIN_PAGE_SIZE)} value={page} onChange={onPage} />}
    </Group>
  );
}
