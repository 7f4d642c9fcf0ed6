import { Accordion, Code, SimpleGrid, Text } from '@mantine/core';
import { INGEST_FORMATS, INGEST_FORMAT_LABELS } from '../../../../../contract/ingest-formats.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { formatUrl } from '../../../lib/ingest-examples.ts';

/**
 * The webhook URL of each vendor format (Grafana, Zabbix, Uptime Kuma, RMMs, clouds), folded away under one line so
 * the card stays short: the key goes as `Authorization: Bearer …` or after the URL as one more path segment.
 */
export function FormatUrls({ eventsUrl }: { eventsUrl: string }) {
  return (
    <Accordion variant="default" chevronPosition="left" mt="xs" data-testid="integration-formats">
      <Accordion.Item value="formats" style={{ borderBottom: 0 }}>
        <Accordion.Control px={0} py={4}>
          <Text size="sm" c="dimmed">
            Webhook URLs for Grafana, Zabbix, Uptime Kuma, NinjaOne, Datto RMM, Azure, Datadog and AWS
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
          <Text size="xs" c="dimmed" mb={6}>
            Send the key as <Code>Authorization: Bearer …</Code>, or add <Code>/&lt;key&gt;</Code> to the URL for tools that cannot set headers (AWS SNS, Datto RMM).
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs" verticalSpacing={4}>
            {INGEST_FORMATS.map((format) => (
              <div key={format} className="min-w-0">
                <Text size="xs" fw={600}>
                  {INGEST_FORMAT_LABELS[format]}
                </Text>
                <Copyable value={formatUrl(eventsUrl, format)} label={`${INGEST_FORMAT_LABELS[format]} URL`} />
              </div>
            ))}
          </SimpleGrid>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
