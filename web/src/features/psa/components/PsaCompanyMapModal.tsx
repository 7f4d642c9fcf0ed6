import { useState } from 'react';
import { Alert as Callout, Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconChecks, IconSparkles } from '@tabler/icons-react';
import { PSA_NAMES, type PsaCompanyMap, type PsaConnection } from '../../../../../contract/psa.ts';
import { ApiError, refusalReason } from '../../../lib/api.ts';
import { Loading } from '../../../components/Loading.tsx';
import { usePsaCompanyMap, useSavePsaCompanyMap } from '../api/psa-connections.ts';
import { CompanyPicker } from './CompanyPicker.tsx';
import { PSA_UI } from './psa-texts.ts';

type Chosen = Record<string, { id: string; name: string } | null>;
type Item = PsaCompanyMap['items'][number];

const mappedOf = (items: Item[]): Chosen => Object.fromEntries(items.map((i) => [i.clientId, i.companyId ? { id: i.companyId, name: i.companyName ?? i.companyId } : null]));

/** Each client of the organization and its company in the PSA: mapped, suggested by name and aliases, or none. */
export function PsaCompanyMapModal({ tenantId, connection, onClose }: { tenantId: string; connection: PsaConnection; onClose: () => void }) {
  const phone = !!useMediaQuery('(max-width: 36em)');
  const map = usePsaCompanyMap(tenantId, connection.id);
  return (
    <Modal opened onClose={onClose} title={`Company mapping: ${connection.name}`} size="xl" fullScreen={phone} data-testid="psa-company-map">
      {map.isPending ? (
        <Loading />
      ) : map.isError ? (
        <Callout color="red" icon={<IconAlertTriangle />} title={PSA_UI.mapLoadFailed} data-testid="psa-map-failed">
          <Stack gap="xs" align="flex-start">
            {refusalReason(map.error) && <Text size="sm">{refusalReason(map.error)}</Text>}
            <Button size="xs" variant="default" onClick={() => void map.refetch()} loading={map.isFetching}>
              Retry
            </Button>
          </Stack>
        </Callout>
      ) : (
        <MapEditor tenantId={tenantId} connection={connection} items={map.data.items} onClose={onClose} />
      )}
    </Modal>
  );
}

function MapEditor({ tenantId, connection, items, onClose }: { tenantId: string; connection: PsaConnection; items: Item[]; onClose: () => void }) {
  const save = useSavePsaCompanyMap(tenantId, connection.id);
  const [chosen, setChosen] = useState<Chosen>(() => mappedOf(items));
  const [failure, setFailure] = useState<string | null>(null);
  const pending = items.filter((i) => i.suggested && !chosen[i.clientId]);
  const psa = PSA_NAMES[connection.type];

  if (items.length === 0)
    return (
      <Text c="dimmed" ta="center" py="lg" data-testid="psa-map-empty">
        {PSA_UI.noClients}
      </Text>
    );

  const acceptAll = () => setChosen((c) => ({ ...c, ...Object.fromEntries(pending.map((i) => [i.clientId, { id: i.suggested!.companyId, name: i.suggested!.companyName }])) }));
  const submit = () => {
    setFailure(null);
    const body = { items: Object.entries(chosen).flatMap(([clientId, c]) => (c ? [{ clientId, companyId: c.id, companyName: c.name }] : [])) };
    save.mutate(body, { onSuccess: () => (notifications.show({ color: 'green', message: PSA_UI.saved }), onClose()), onError: (err) => setFailure(err instanceof ApiError ? err.message : String(err)) });
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        An alert of a client opens its ticket for the {psa} company mapped here; an unmapped client&apos;s alerts use the catch-all company, or open no ticket.
      </Text>
      {failure && (
        <Callout color="red" icon={<IconAlertTriangle />}>
          {failure}
        </Callout>
      )}
      <Group justify="space-between" gap="xs">
        <Text size="sm" data-testid="psa-map-count">
          {items.filter((i) => chosen[i.clientId]).length} of {items.length} clients mapped
        </Text>
        <Button size="xs" variant="light" leftSection={<IconChecks size={14} />} onClick={acceptAll} disabled={pending.length === 0} data-testid="psa-accept-all">
          Accept all suggestions{pending.length ? ` (${pending.length})` : ''}
        </Button>
      </Group>
      {items.map((i) => {
        const c = chosen[i.clientId];
        const suggestionShown = !c && i.suggested;
        return (
          <Paper key={i.clientId} withBorder radius="md" p="sm" data-testid="psa-map-row" data-client={i.clientName}>
            <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
              <Stack gap={2} className="min-w-0" style={{ flex: '1 1 12rem' }}>
                <Text fw={600} className="wrap-anywhere">
                  {i.clientName}
                </Text>
                {c ? (
                  <Badge variant="light" color="green" data-testid="psa-map-state">
                    Mapped
                  </Badge>
                ) : suggestionShown ? (
                  <Group gap={6} wrap="wrap">
                    <Badge variant="light" color="blue" leftSection={<IconSparkles size={12} />} tt="none" maw="100%" data-testid="psa-map-state">
                      Suggested: {i.suggested!.companyName}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      matched on {i.suggested!.matchedOn}
                    </Text>
                  </Group>
                ) : (
                  <Badge variant="light" color="gray" data-testid="psa-map-state">
                    Not mapped
                  </Badge>
                )}
              </Stack>
              <Group gap="xs" align="flex-end" wrap="nowrap" style={{ flex: '2 1 16rem' }} className="min-w-0">
                <div className="grow min-w-0">
                  <CompanyPicker
                    tenantId={tenantId}
                    connectionId={connection.id}
                    aria-label={`${psa} company of ${i.clientName}`}
                    value={c?.id ?? null}
                    valueName={c?.name}
                    onChange={(v) => setChosen((s) => ({ ...s, [i.clientId]: v }))}
                    testId="psa-map-company"
                  />
                </div>
                {suggestionShown && (
                  <Button size="xs" variant="default" onClick={() => setChosen((s) => ({ ...s, [i.clientId]: { id: i.suggested!.companyId, name: i.suggested!.companyName } }))}>
                    Accept
                  </Button>
                )}
              </Group>
            </Group>
          </Paper>
        );
      })}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending} data-testid="psa-map-save">
          Save mapping
        </Button>
      </Group>
    </Stack>
  );
}
