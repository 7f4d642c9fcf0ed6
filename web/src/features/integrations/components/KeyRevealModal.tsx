import { Alert as Callout, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { INTEGRATION_MSG, type IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { curlExample } from '../../../lib/ingest-examples.ts';

/** Shown once after creating or rotating: the key in full, and how each kind of tool uses it. */
export function KeyRevealModal({ revealed, onClose }: { revealed: IntegrationWithKey | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  if (!revealed) return null;
  const { integration, key } = revealed;
  const e = integration.endpoints;
  return (
    <Modal opened onClose={onClose} title={`Integration key: ${integration.name}`} size="lg" fullScreen={phone} data-testid="key-modal">
      <Stack gap="md">
        <Callout color="orange" icon={<IconKey />}>
          {INTEGRATION_MSG.keyShownOnce}
        </Callout>
        <Copyable value={key} label="key" />
        <div>
          <Text fw={600} size="sm">
            PagerDuty-compatible tools (Events API v2)
          </Text>
          <Text size="sm" c="dimmed">
            Point the events URL here and use the key as the routing key / integration key.
          </Text>
          <Copyable value={e.pagerduty} label="PagerDuty URL" />
        </div>
        <div>
          <Text fw={600} size="sm">
            Prometheus Alertmanager (webhook)
          </Text>
          <Text size="sm" c="dimmed">
            Send the key as <Code>Authorization: Bearer …</Code>, or append it to the URL for tools that cannot set headers.
          </Text>
          <Copyable value={e.alertmanager} label="Alertmanager URL" />
        </div>
        <div>
          <Text fw={600} size="sm">
            Anything else (generic JSON)
          </Text>
          <Copyable value={curlExample(e.events, key)} label="curl example" />
        </div>
        {integration.emailAddress && (
          <div>
            <Text fw={600} size="sm">
              Tools that only send email
            </Text>
            <Text size="sm" c="dimmed">
              Send or forward their mail to this address (it is not the key, and stays on the integration’s card).
            </Text>
            <Copyable value={integration.emailAddress} label="email address" />
          </div>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>I have copied the key</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
