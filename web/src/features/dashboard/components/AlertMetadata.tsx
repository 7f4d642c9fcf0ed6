import { Anchor, Table, Text } from '@mantine/core';

const metadataValue = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

const isLink = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\//.test(v);

/** The alert's metadata (annotations, custom details) as a key/value table; web links open in a new tab. */
export function AlertMetadata({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = Object.entries(metadata);
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
        Metadata
      </Text>
      {entries.length ? (
        <Table.ScrollContainer minWidth={320}>
          <Table withTableBorder withColumnBorders striped data-testid="alert-metadata">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="35%">Key</Table.Th>
                <Table.Th>Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Td className="wrap-anywhere">{k}</Table.Td>
                  <Table.Td className="wrap-anywhere">
                    {isLink(v) ? (
                      <Anchor href={v} target="_blank" rel="noreferrer noopener" size="sm">
                        {v}
                      </Anchor>
                    ) : (
                      metadataValue(v)
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          No metadata
        </Text>
      )}
    </div>
  );
}
