import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconEdit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { COMPANY_SIZE_LABELS, type Client } from '../../../../../contract/clients.ts';
import { HEARTBEAT_MSG, HEARTBEAT_STATE_LABELS, type HeartbeatList, type HeartbeatState } from '../../../../../contract/heartbeats.ts';
import { MAINTENANCE_MSG, type MaintenanceWindowList } from '../../../../../contract/maintenance.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { Loading } from '../../../components/Loading.tsx';
import { api, ApiError } from '../../../lib/api.ts';
import { formatAge, formatDateTime } from '../../../lib/dates.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
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

const HEARTBEAT_COLORS: Record<HeartbeatState, string> = { new: 'gray', up: 'green', late: 'yellow', down: 'red', paused: 'blue' };

/** A titled part of the details (`client-<name>`), with a link to where it is managed for those who may. */
function DetailsSection({ name, title, manage, children }: { name: string; title: string; manage: string | null; children: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-labelledby={`client-${name}-title`} data-testid={`client-${name}`}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Title order={3} size="h5" id={`client-${name}-title`}>
          {title}
        </Title>
        {manage && (
          <Anchor component={Link} to={manage} size="sm">
            Manage
          </Anchor>
        )}
      </Group>
      {children}
    </Stack>
  );
}

/**
 * The client's maintenance windows (issue 31), read-only: the one on now (until when) and the next to begin, among its
 * own and the whole tenant's. Under the Escalation page's key for windows, so a change there refreshes it.
 */
function ClientMaintenance({ tenantId, clientId }: { tenantId: string; clientId: string }) {
  const { tenant } = useCurrentTenant();
  const query = useQuery({
    queryKey: [...queryKeys.tenant(tenantId), 'maintenance', 'list', `clientId=${encodeURIComponent(clientId)}&current=true`],
    queryFn: ({ signal }) => api<MaintenanceWindowList>(`/tenants/${encodeURIComponent(tenantId)}/maintenanceWindows?clientId=${encodeURIComponent(clientId)}&current=true`, { signal }).then((r) => r.items),
    refetchInterval: 30_000,
  });
  const active = (query.data ?? []).filter((w) => w.state === 'active');
  const next = (query.data ?? []).filter((w) => w.nextStart).sort((a, b) => a.nextStart!.localeCompare(b.nextStart!))[0];
  let body: ReactNode;
  if (query.isPending) body = <Loader size="xs" />;
  else if (query.isError) body = <Text size="sm" c="red">{MAINTENANCE_MSG.loadFailed}</Text>;
  else if (!active.length && !next) body = <Text size="sm" c="dimmed">{MAINTENANCE_MSG.clientNone}</Text>;
  else
    body = (
      <Stack gap={4}>
        {active.map((w) => (
          <Group key={w.id} gap="xs" wrap="nowrap" data-testid="client-maintenance-active">
            <Badge color="grape" className="no-shrink">Active</Badge>
            <Text size="sm" className="wrap-anywhere">
              {w.name}: {MAINTENANCE_MSG.activeUntil(formatDateTime(w.activeUntil))}
            </Text>
          </Group>
        ))}
        {next && (
          <Group gap="xs" wrap="nowrap" data-testid="client-maintenance-next">
            <Badge color="blue" variant="light" className="no-shrink">Next</Badge>
            <Text size="sm" className="wrap-anywhere">
              {next.name}: {formatDateTime(next.nextStart)} → {formatDateTime(next.nextEnd)}
            </Text>
          </Group>
        )}
      </Stack>
    );
  return (
    <DetailsSection name="maintenance" title="Maintenance windows" manage={tenant?.abilities.manageEscalation ? '/app/escalation-policies?tab=maintenance' : null}>
      {body}
    </DetailsSection>
  );
}

/**
 * The client's heartbeat monitors, read-only (every member may see them; they are managed in Tenant Administration's
 * Heartbeats tab). A small query of its own rather than the heartbeats feature's panel: features do not import each
 * other, and this needs only names and states. Its key is under the heartbeats feature's, so changes there refresh it.
 */
function ClientHeartbeats({ tenantId, clientId }: { tenantId: string; clientId: string }) {
  const { tenant } = useCurrentTenant();
  const query = useQuery({
    queryKey: [...queryKeys.tenant(tenantId), 'heartbeats', 'client', clientId],
    queryFn: ({ signal }) => api<HeartbeatList>(`/tenants/${encodeURIComponent(tenantId)}/heartbeats?clientId=${encodeURIComponent(clientId)}`, { signal }),
  });
  let body: ReactNode;
  if (query.isPending)
    body = (
      <Group gap="xs" py="xs" role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Group>
    );
  else if (query.isError)
    body = (
      <Alert color="red" icon={<IconAlertCircle />} py="xs" data-testid="client-heartbeats-error">
        <Group justify="space-between" gap="xs">
          <Text size="sm">{HEARTBEAT_MSG.loadFailed}</Text>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  else if (query.data.items.length === 0)
    body = (
      <Text size="sm" c="dimmed" py={4}>
        {HEARTBEAT_MSG.noneForClient}
      </Text>
    );
  else
    body = (
      <Paper withBorder radius="md" p={4}>
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          {query.data.items.map((h) => (
            <Group key={h.id} component="li" justify="space-between" wrap="nowrap" gap="xs" px="xs" py={6} data-testid="client-heartbeat" data-state={h.state}>
              <Group gap="xs" wrap="nowrap" className="min-w-0">
                <Badge color={HEARTBEAT_COLORS[h.state]} variant={h.state === 'down' ? 'filled' : 'light'} className="no-shrink">
                  {HEARTBEAT_STATE_LABELS[h.state]}
                </Badge>
                <Text size="sm" fw={500} className="wrap-anywhere">
                  {h.name}
                </Text>
              </Group>
              <Text size="xs" c="dimmed" title={h.lastPingAt ? `Last ping ${formatDateTime(h.lastPingAt)}` : undefined} className="nowrap">
                {h.lastPingAt ? `pinged ${formatAge(h.lastPingAt) === 'just now' ? 'just now' : `${formatAge(h.lastPingAt)} ago`}` : 'never pinged'}
              </Text>
            </Group>
          ))}
        </Stack>
      </Paper>
    );
  return (
    <DetailsSection name="heartbeats" title="Heartbeat monitors" manage={tenant?.abilities.manageIntegrations ? '/app/tenant-admin?tab=heartbeats' : null}>
      {body}
    </DetailsSection>
  );
}

/**
 * Client details, read fresh from the server, with its open and recent alerts and its heartbeat monitors, Close and Edit
 * Client (spec section 2). `returnFocus` false: closing gives the focus back to nothing (the edit form opening in its
 * place takes it; handed back to the list 10 ms after closing, it could land there between two keystrokes typed in the
 * form).
 */
export function ClientDetailsModal({
  tenantId,
  clientId,
  onClose,
  onEdit,
  returnFocus = true,
}: {
  tenantId: string;
  clientId: string | null;
  onClose: () => void;
  onEdit: (c: Client) => void;
  returnFocus?: boolean;
}) {
  const query = useClient(tenantId, clientId);
  return (
    <Modal opened={!!clientId} onClose={onClose} title="Client Details" size="lg" centered returnFocus={returnFocus}>
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
      <ClientHeartbeats tenantId={tenantId} clientId={c.id} />
      <ClientMaintenance tenantId={tenantId} clientId={c.id} />
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
