import '@mantine/charts/styles.css';
import '../reports.css';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconChartBar, IconPrinter } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { REPORT_LIMITS, REPORT_MSG } from '../../../../../contract/reports.ts';
import { LoadError, NoPermission, NoTenant, StatePanel } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { reportSummaryQuery, useReportSummary } from '../api/report-summary.ts';
import { PrintableReport } from '../components/PrintableReport.tsx';
import { clientLabel, ReportFigures } from '../components/ReportFigures.tsx';
import { StatCards } from '../components/StatCards.tsx';
import { dayOf, isPeriodChoice, PERIOD_CHOICES, periodRange, type PeriodChoice } from '../lib/period.ts';

/** The report's choices live in the URL (period, dates, client, the printable view): a reload or a link keeps them. */
function useReportParams() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('period');
  const period: PeriodChoice = isPeriodChoice(raw) ? raw : '30';
  const from = params.get('from');
  const to = params.get('to');
  const clientId = params.get('client');
  const printView = params.get('view') === 'print';
  const update = (patch: Record<string, string | null>, push = false) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null || v === '' || (k === 'period' && v === '30')) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: !push },
    );
  return { period, from, to, clientId, printView, update };
}

export function ReportsPage() {
  const { tenant } = useCurrentTenant();
  if (!tenant) return <NoTenant />;
  if (tenant.role !== 'owner' && tenant.role !== 'admin') return <NoPermission />;
  return <ReportsView key={tenant.id} tenantId={tenant.id} />;
}

function ReportsView({ tenantId }: { tenantId: string }) {
  const view = useReportParams();
  const range = periodRange(view.period, { from: view.from, to: view.to });
  const tooLong = range !== null && Date.parse(range.to) - Date.parse(range.from) > REPORT_LIMITS.maxDays * 86_400_000;
  const params = range && !tooLong ? { ...range, clientId: view.clientId } : null;
  const summary = useReportSummary(tenantId, params);
  // The whole tenant's summary names every client with alerts in the period: the picker offers them beside the first
  // clients by name. It is the page's own when no client is picked; with one picked, only what is cached is used (the
  // whole tenant's figures are the report's costliest query, not worth running for a list of names).
  const qc = useQueryClient();
  const everyone = params ? qc.getQueryData(reportSummaryQuery(tenantId, { ...params, clientId: null }).queryKey) : undefined;
  const choices = useClientChoices(tenantId);
  const clientOptions = new Map<string, string>();
  for (const c of choices.data ?? []) clientOptions.set(c.id, c.name);
  for (const c of everyone?.byClient ?? []) if (c.clientId) clientOptions.set(c.clientId, clientLabel(c));
  if (view.clientId && !clientOptions.has(view.clientId)) clientOptions.set(view.clientId, summary.data?.clientName ?? view.clientId);
  const orderedCustom = !(view.period === 'custom' && view.from && view.to && view.from > view.to);

  if (view.printView && summary.data) {
    return <PrintableReport tenantId={tenantId} summary={summary.data} onBack={() => view.update({ view: null })} />;
  }

  const r = summary.data;
  const fileStem = r ? `${r.tenantName} ${r.clientName ?? ''} ${dayOf(new Date(r.from))} ${dayOf(new Date(Date.parse(r.to) - 1))}` : 'report';
  return (
    <Stack gap="md">
      <PageHeader
        title={REPORT_MSG.title}
        description={REPORT_MSG.description}
        actions={
          <Button leftSection={<IconPrinter size={16} />} variant="light" disabled={!r || r.opened === 0} onClick={() => view.update({ view: 'print' }, true)} data-testid="printable-report">
            {REPORT_MSG.printable}
          </Button>
        }
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Period"
          data={PERIOD_CHOICES.map((c) => ({ value: c.value, label: c.label }))}
          value={view.period}
          onChange={(v) => v && view.update(v === 'custom' ? { period: v, from: view.from ?? dayOf(new Date(Date.now() - 29 * 86_400_000)), to: view.to ?? dayOf(new Date()) } : { period: v, from: null, to: null })}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
          data-testid="report-period"
        />
        {view.period === 'custom' && (
          <>
            <TextInput type="date" label="From" value={view.from ?? ''} max={view.to ?? undefined} onChange={(e) => view.update({ from: e.currentTarget.value || null })} error={orderedCustom ? undefined : REPORT_MSG.fromNotBeforeTo} w={{ base: 'calc(50% - 6px)', xs: 160 }} data-testid="report-from" />
            <TextInput type="date" label="To" value={view.to ?? ''} min={view.from ?? undefined} onChange={(e) => view.update({ to: e.currentTarget.value || null })} error={tooLong ? REPORT_MSG.tooLong : orderedCustom ? undefined : REPORT_MSG.toNotAfterFrom} w={{ base: 'calc(50% - 6px)', xs: 160 }} data-testid="report-to" />
          </>
        )}
        <Select
          label="Client"
          placeholder={REPORT_MSG.allClients}
          data={[...clientOptions].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label))}
          value={view.clientId}
          onChange={(v) => view.update({ client: v })}
          searchable
          clearable
          nothingFoundMessage="No such client"
          w={{ base: '100%', xs: 240 }}
          data-testid="report-client-picker"
        />
      </Group>
      {!params ? (
        <StatePanel icon={<IconChartBar />} title={tooLong ? REPORT_MSG.tooLong : 'Choose the first and last day of the period.'} />
      ) : summary.isPending ? (
        <Loading />
      ) : summary.isError && !r ? (
        <LoadError message={REPORT_MSG.loadFailed} onRetry={() => summary.refetch()} />
      ) : r && r.opened === 0 ? (
        <StatePanel icon={<IconChartBar />} title={view.clientId ? REPORT_MSG.emptyClient : REPORT_MSG.empty} />
      ) : r ? (
        <Stack gap="md" style={{ opacity: summary.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }} aria-busy={summary.isFetching}>
          <StatCards r={r} />
          <ReportFigures r={r} fileStem={fileStem} />
        </Stack>
      ) : null}
    </Stack>
  );
}
