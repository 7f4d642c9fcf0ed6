import { Code, Text } from '@mantine/core';
import { INTEGRATION_MSG, type IntegrationWithKey } from '../../../../../contract/integrations.ts';
import { Copyable } from '../../../components/Copyable.tsx';
import { ShownOnceModal } from '../../../components/ShownOnceModal.tsx';
import { curlExample } from '../../../lib/ingest-examples.ts';

/** Shown once after creating or rotating: the key in full, and how each kind of tool uses it. */
export function KeyRevealModal({ revealed, onClose }: { revealed: IntegrationWithKey | null; onClose: () => void }) {
  if (!revealed) return null;
  const { integration, key } = revealed;
  const e = integration.endpoints;
  return (
    <ShownOnceModal title={`Integration key: ${integration.name}`} notice={INTEGRATION_MSG.keyShownOnce} value={key} valueLabel="key" doneLabel="I have copied the key" onClose={onClose} data-testid="key-modal">
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
    </ShownOnceModal>
  );
}
