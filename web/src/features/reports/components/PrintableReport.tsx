import { Alert, Button, Group, Image, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import { REPORT_MSG, type ReportSummary } from '../../../../../contract/reports.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useReportSummary } from '../api/report-summary.ts';
import { formatDuration, formatShare, formatTarget, periodLabel } from '../lib/period.ts';

/** Pages printed at most when no client is picked: the clients with the most alerts. */
export const PRINT_MAX_CLIENTS = 25;

/** A logo address the page may load: the tenant's own https (or http) URL, or one of ours. */
const safeLogo = (url: string | null) => (url && /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : null);

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value}
      </Text>
    </div>
  );
}

/** A moment as the report gives it: in the report's zone (the one its footer names). */
const inZone = (iso: string, timeZone: string) => new Date(iso).toLocaleString(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });

/** One client's page: its volume, response times against target, top issues, and maintenance. */
function ClientPage({ r }: { r: ReportSummary }) {
  const logo = safeLogo(r.tenantLogoUrl);
  return (
    <Paper withBorder radius="md" p="xl" className="report-page" data-testid="print-page" component="article" aria-label={`Service report: ${r.clientName ?? REPORT_MSG.noClient}`}>
      <Group justify="space-between" align="flex-start" mb="lg" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {r.tenantName}
          </Text>
          <Title order={2} size="h2">
            Service report: {r.clientName ?? REPORT_MSG.noClient}
          </Title>
          <Text size="sm">{periodLabel(r.from, r.to)}</Text>
        </Stack>
        {logo && <Image src={logo} alt={`${r.tenantName} logo`} h={48} w="auto" fit="contain" />}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="lg" spacing="md">
        <Figure label="Alerts" value={r.opened.toLocaleString()} />
        <Figure label="Mean time to acknowledge" value={formatDuration(r.mttaSeconds)} />
        <Figure label="Mean time to resolve" value={formatDuration(r.mttrSeconds)} />
        <Figure label="Acknowledged within target" value={formatShare(r.ackWithinTargetShare)} />
      </SimpleGrid>
      <Title order={3} size="h5" mb={4}>
        Response times against target
      </Title>
      <Table withTableBorder fz="sm" mb="lg" aria-label="Response times against target">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Priority</Table.Th>
            <Table.Th ta="right">Alerts</Table.Th>
            <Table.Th ta="right">Target</Table.Th>
            <Table.Th ta="right">Mean to acknowledge</Table.Th>
            <Table.Th ta="right">Within target</Table.Th>
            <Table.Th ta="right">Mean to resolve</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {r.byPriority
            .filter((p) => p.opened > 0)
            .map((p) => (
              <Table.Tr key={p.priority}>
                <Table.Td>{PRIORITY_LABELS[p.priority]}</Table.Td>
                <Table.Td ta="right">{p.opened}</Table.Td>
                <Table.Td ta="right">{formatTarget(p.targetMinutes)}</Table.Td>
                <Table.Td ta="right">{formatDuration(p.mttaSeconds)}</Table.Td>
                <Table.Td ta="right">{formatShare(p.ackWithinTargetShare)}</Table.Td>
                <Table.Td ta="right">{formatDuration(p.mttrSeconds)}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      <Title order={3} size="h5" mb={4}>
        Top issues
      </Title>
      <Table withTableBorder fz="sm" mb="lg" aria-label="Top issues">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Issue</Table.Th>
            <Table.Th ta="right">Alerts</Table.Th>
            <Table.Th ta="right">Occurrences</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {r.topIssues.slice(0, 5).map((i) => (
            <Table.Tr key={i.title}>
              <Table.Td>{i.title}</Table.Td>
              <Table.Td ta="right">{i.alerts}</Table.Td>
              <Table.Td ta="right">{i.occurrences}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3} size="h5" mb={4}>
        {REPORT_MSG.maintenanceDone}
      </Title>
      {r.maintenanceDone.length === 0 ? (
        <Text size="sm" mb="lg" data-testid="print-no-maintenance">
          {REPORT_MSG.noMaintenance}
        </Text>
      ) : (
        <Table withTableBorder fz="sm" mb="lg" aria-label={REPORT_MSG.maintenanceDone}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Window</Table.Th>
              <Table.Th>From</Table.Th>
              <Table.Th>Until</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {r.maintenanceDone.map((m) => (
              <Table.Tr key={`${m.windowId}:${m.start}`}>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>{inZone(m.start, r.timeZone)}</Table.Td>
                <Table.Td>{inZone(m.end, r.timeZone)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm">
        Never acknowledged: {r.neverAcknowledged} of {r.opened}. Opened during maintenance: {r.maintenanceSuppressed} ({REPORT_MSG.maintenanceNote.toLowerCase()})
      </Text>
      <Text size="xs" c="dimmed" mt="md">
        Prepared by {r.tenantName} on {new Date(r.generatedAt).toLocaleDateString(undefined, { dateStyle: 'long' })}. Times in {r.timeZone}.
      </Text>
    </Paper>
  );
}

/** One client's page, loading its own summary (a page at a time, each cached like the screen's). */
function LoadedClientPage({ tenantId, from, to, clientId }: { tenantId: string; from: string; to: string; clientId: string }) {
  const q = useReportSummary(tenantId, { from, to, clientId });
  if (q.isPending) return <Loading />;
  if (q.isError || !q.data) return <LoadError message={REPORT_MSG.loadFailed} onRetry={() => q.refetch()} />;
  return <ClientPage r={q.data} />;
}

/**
 * The printable client report (issue 31): one page per client, to hand to the customer. The print stylesheet
 * (reports.css) hides the app around it and breaks pages between clients.
 */
export function PrintableReport({ tenantId, summary, onBack }: { tenantId: string; summary: ReportSummary; onBack(): void }) {
  const all = summary.clientId ? [summary.clientId] : summary.byClient.map((c) => c.clientId).filter((id): id is string => id !== null);
  const ids = all.slice(0, PRINT_MAX_CLIENTS);
  return (
    <Stack className="report-print" gap="lg">
      <Group justify="space-between" className="no-print">
        <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
          {REPORT_MSG.backToReports}
        </Button>
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {REPORT_MSG.print}
        </Button>
      </Group>
      {all.length > ids.length && (
        <Alert className="no-print" color="blue">
          {REPORT_MSG.printTooMany(ids.length, all.length)}
        </Alert>
      )}
      {ids.length === 0 && <Text c="dimmed">{REPORT_MSG.empty}</Text>}
      {ids.map((clientId) => (
        <LoadedClientPage key={clientId} tenantId={tenantId} from={summary.from} to={summary.to} clientId={clientId} />
      ))}
    </Stack>
  );
}
