import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Group, Modal, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle, IconEdit } from '@tabler/icons-react';
import { COMPANY_SIZE_LABELS, type Client } from '../../../../../contract/clients.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useClient } from '../api/get-client.ts';
import { ClientAlerts } from './ClientAlerts.tsx';
import { ClientStatusBadge } from './ClientStatusBadge.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" className="wrap-anywhere">
        {children || <Text span c="dimmed" size="sm">{MSG.notAvailable}</Text>}
      </Text>
    </Stack>
  );
}

/** A website as a link; stored values may lack the scheme, which the browser needs to leave the app. */
const websiteHref = (site: string) => (/^https?:\/\//i.test(site) ? site : `https://${site}`);

function address(c: Client) {
  const cityLine = [c.city, c.state, c.zipCode].filter(Boolean).join(', ');
  const lines = [c.address, cityLine, c.country].filter(Boolean);
  return lines.length ? lines.map((l) => <div key={l}>{l}</div>) : null;
}

/** Client details, read fresh from the server, with its open and recent alerts, Close and Edit Client (spec section 2). */
export function ClientDetailsModal({ tenantId, clientId, onClose, onEdit }: { tenantId: string; clientId: string | null; onClose: () => void; onEdit: (c: Client) => void }) {
  const query = useClient(tenantId, clientId);
  return (
    <Modal opened={!!clientId} onClose={onClose} title="Client Details" size="lg" centered>
      {query.data ? (
        <Details tenantId={tenantId} c={query.data} onClose={onClose} onEdit={onEdit} />
      ) : query.isError ? (
        <Stack>
          <Alert color="red" icon={<IconAlertCircle />} data-testid="client-details-error">
            {query.error instanceof ApiError && query.error.status === 404 ? MSG.clientNotFound : MSG.clientGetFailed}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      ) : (
        <Loading />
      )}
    </Modal>
  );
}

function Details({ tenantId, c, onClose, onEdit }: { tenantId: string; c: Client; onClose: () => void; onEdit: (c: Client) => void }) {
  return (
    <Stack gap="md" data-testid="client-details">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4} className="min-w-0">
          <Text fw={700} size="xl" className="wrap-anywhere">
            {c.name}
          </Text>
          {c.description && (
            <Text c="dimmed" size="sm" className="pre-wrap">
              {c.description}
            </Text>
          )}
        </Stack>
        <ClientStatusBadge status={c.status} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        <Field label="Contact name">{c.contactName}</Field>
        <Field label="Contact email">{c.contactEmail && <Anchor href={`mailto:${c.contactEmail}`}>{c.contactEmail}</Anchor>}</Field>
        <Field label="Contact phone">{c.contactPhone && <Anchor href={`tel:${c.contactPhone}`}>{c.contactPhone}</Anchor>}</Field>
        <Field label="Website">
          {c.website && (
            <Anchor href={websiteHref(c.website)} target="_blank" rel="noopener noreferrer">
              {c.website}
            </Anchor>
          )}
        </Field>
        <Field label="Industry">{c.industry}</Field>
        <Field label="Company size">{c.size && COMPANY_SIZE_LABELS[c.size]}</Field>
        <Field label="Address">{address(c)}</Field>
        <Field label="Tags">
          {c.tags.length > 0 && (
            <Group gap={6}>
              {c.tags.map((t) => (
                <Badge key={t} variant="outline" size="sm" tt="none">
                  {t}
                </Badge>
              ))}
            </Group>
          )}
        </Field>
        <Field label="Created">
          {formatDateTime(c.createdAt)}
          {c.createdByName && <Text span c="dimmed" size="sm">{` by ${c.createdByName}`}</Text>}
        </Field>
        <Field label="Updated">{formatDateTime(c.updatedAt)}</Field>
      </SimpleGrid>
      {Object.keys(c.customFields).length > 0 && (
        <Stack gap={4}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Custom fields
          </Text>
          <Table withTableBorder withColumnBorders verticalSpacing={6} data-testid="client-custom-fields">
            <Table.Tbody>
              {Object.entries(c.customFields).map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w="40%" className="wrap-anywhere">
                    {k}
                  </Table.Th>
                  <Table.Td className="wrap-anywhere">{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
      <ClientAlerts tenantId={tenantId} clientId={c.id} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button leftSection={<IconEdit size={16} />} onClick={() => onEdit(c)}>
          Edit Client
        </Button>
      </Group>
    </Stack>
  );
}
