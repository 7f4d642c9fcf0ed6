import { BarChart, MatrixChart } from '@mantine/charts';
import { Stack, Text, useComputedColorScheme } from '@mantine/core';
import { PRIORITY_LABELS } from '../../../../../contract/alerts.ts';
import { REPORT_MSG, type ReportSummary } from '../../../../../contract/reports.ts';
import { csvFileName } from '../lib/csv.ts';
import { formatDuration, formatShare, formatTarget } from '../lib/period.ts';
import { FigureTable } from './FigureTable.tsx';
import { ReportSection } from './ReportSection.tsx';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const CHART_CLIENTS = 10;
/** A share as a number for a CSV cell (0–1 with 4 decimals), empty when there is none. */
const shareCell = (s: number | null) => (s === null ? null : Math.round(s * 10_000) / 10_000);
export const clientLabel = (c: { clientId: string | null; clientName: string | null }) => (c.clientId === null ? REPORT_MSG.noClient : (c.clientName ?? REPORT_MSG.deletedClient));

/** Every figure of the summary, each a chart with its table and its CSV. `fileStem` names the CSV files. */
export function ReportFigures({ r, fileStem }: { r: ReportSummary; fileStem: string }) {
  const file = (what: string) => csvFileName(fileStem, what);
  // Few alerts are faint and many strong against the page: light to deep orange on light, deep to bright on dark.
  const dark = useComputedColorScheme('light') === 'dark';
  const heat = dark ? ['dark.5', 'orange.9', 'orange.7', 'orange.5'] : ['orange.1', 'orange.3', 'orange.5', 'orange.7'];
  const priorityRows = r.byPriority.map((p) => ({ ...p, label: PRIORITY_LABELS[p.priority] }));
  const topClients = r.byClient.slice(0, CHART_CLIENTS).map((c) => ({ client: clientLabel(c), Opened: c.opened, 'Never acknowledged': c.neverAcknowledged }));
  const perHour = Array.from({ length: 24 }, (_, hour) => ({ hour: String(hour).padStart(2, '0'), Opened: r.byHourOfWeek.filter((c) => c.hour === hour).reduce((s, c) => s + c.opened, 0) }));
  return (
    <Stack gap="md">
      <ReportSection
        id="priority"
        title="By priority"
        description={REPORT_MSG.withinTargetHelp}
        chart={
          <BarChart
            h={240}
            data={priorityRows.map((p) => ({ priority: p.label, Acknowledged: p.acknowledged, 'Never acknowledged': p.neverAcknowledged }))}
            dataKey="priority"
            type="stacked"
            series={[
              { name: 'Acknowledged', color: 'teal.6' },
              { name: 'Never acknowledged', color: 'red.5' },
            ]}
            withLegend
            yAxisProps={{ allowDecimals: false }}
            data-testid="chart-priority"
          />
        }
        table={
          <FigureTable
            caption="Alerts and response times by priority"
            testId="table-priority"
            header={['Priority', 'Opened', 'MTTA', 'MTTR', 'Target', 'Within target', 'Never ack.']}
            rows={priorityRows.map((p) => [p.label, p.opened, formatDuration(p.mttaSeconds), formatDuration(p.mttrSeconds), formatTarget(p.targetMinutes), formatShare(p.ackWithinTargetShare), p.neverAcknowledged])}
          />
        }
        csv={{
          filename: file('by-priority'),
          header: ['Priority', 'Opened', 'Acknowledged', 'Never acknowledged', 'Resolved', 'MTTA seconds', 'MTTR seconds', 'Target minutes (min)', 'Target minutes (max)', 'With a target', 'Within target', 'Within target share'],
          rows: priorityRows.map((p) => [p.label, p.opened, p.acknowledged, p.neverAcknowledged, p.resolved, p.mttaSeconds, p.mttrSeconds, p.targetMinutes?.min, p.targetMinutes?.max, p.targetEligible, p.withinTarget, shareCell(p.ackWithinTargetShare)]),
        }}
      />
      {r.clientId === null && (
        <ReportSection
          id="client"
          title="By client"
          description={r.byClient.length > CHART_CLIENTS ? `The chart shows the ${CHART_CLIENTS} clients with the most alerts; the table and its CSV all ${r.byClient.length}.` : undefined}
          chart={
            <BarChart
              h={Math.max(160, topClients.length * 30)}
              data={topClients}
              dataKey="client"
              orientation="vertical"
            xAxisProps={{ allowDecimals: false }}
              yAxisProps={{ width: 110 }}
              series={[{ name: 'Opened', color: 'orange.6' }]}
              data-testid="chart-client"
            />
          }
          table={
            <FigureTable
              caption="Alerts and response times by client"
              testId="table-client"
              maxHeight={360}
              header={['Client', 'Opened', 'MTTA', 'MTTR', 'Within target', 'Never ack.']}
              rows={r.byClient.map((c) => [clientLabel(c), c.opened, formatDuration(c.mttaSeconds), formatDuration(c.mttrSeconds), formatShare(c.ackWithinTargetShare), c.neverAcknowledged])}
            />
          }
          csv={{
            filename: file('by-client'),
            header: ['Client', 'Client ID', 'Opened', 'Acknowledged', 'Never acknowledged', 'Resolved', 'MTTA seconds', 'MTTR seconds', 'With a target', 'Within target', 'Within target share'],
            rows: r.byClient.map((c) => [clientLabel(c), c.clientId, c.opened, c.acknowledged, c.neverAcknowledged, c.resolved, c.mttaSeconds, c.mttrSeconds, c.targetEligible, c.withinTarget, shareCell(c.ackWithinTargetShare)]),
          }}
        />
      )}
      <ReportSection
        id="hour"
        title="When alerts open"
        description={REPORT_MSG.hourOfWeekHelp(r.timeZone)}
        chart={
          <Stack gap="xs">
            <MatrixChart
              data={r.byHourOfWeek.map((c) => ({ x: String(c.hour).padStart(2, '0'), y: DAYS[c.day - 1], value: c.opened }))}
              xLabels={perHour.map((h) => h.hour)}
              yLabels={DAYS}
              withXLabels
              withYLabels
              xLabelsRotation={0}
              xLabelsHeight={24}
              yLabelsWidth={40}
              cellSize={14}
              fontSize={10}
              colors={heat}
              emptyColor={heat[0]}
              withTooltip
              getTooltipLabel={(c) => `${c.y} ${c.x}:00 – ${c.value ?? 0} opened`}
              style={{ maxWidth: '100%', height: 'auto' }}
              data-testid="chart-hour"
            />
            <BarChart h={140} data={perHour} dataKey="hour" series={[{ name: 'Opened', color: 'orange.6' }]} yAxisProps={{ allowDecimals: false }} />
          </Stack>
        }
        table={
          <FigureTable
            caption="Alerts opened per day of the week and hour"
            testId="table-hour"
            maxHeight={360}
            header={['Hour', ...DAYS]}
            rows={perHour.map((h, hour) => [`${h.hour}:00`, ...DAYS.map((_, d) => r.byHourOfWeek[d * 24 + hour].opened)])}
          />
        }
        csv={{
          filename: file('by-hour-of-week'),
          header: ['Day', 'Hour', 'Opened', 'Time zone'],
          rows: r.byHourOfWeek.map((c) => [DAYS[c.day - 1], c.hour, c.opened, r.timeZone]),
        }}
      />
      <ReportSection
        id="sources"
        title="Top sources"
        description="By occurrences: every repeat of an alert counts."
        chart={
          <BarChart
            h={Math.max(160, r.topSources.length * 30)}
            data={r.topSources.map((s) => ({ source: s.source, Occurrences: s.occurrences }))}
            dataKey="source"
            orientation="vertical"
            xAxisProps={{ allowDecimals: false }}
            yAxisProps={{ width: 110 }}
            series={[{ name: 'Occurrences', color: 'grape.6' }]}
            data-testid="chart-sources"
          />
        }
        table={<FigureTable caption="Top sources" testId="table-sources" header={['Source', 'Occurrences', 'Alerts']} rows={r.topSources.map((s) => [s.source, s.occurrences, s.alerts])} />}
        csv={{ filename: file('top-sources'), header: ['Source', 'Occurrences', 'Alerts'], rows: r.topSources.map((s) => [s.source, s.occurrences, s.alerts]) }}
      />
      <ReportSection
        id="issues"
        title="Top issues"
        description="Alert titles that came up most often."
        chart={
          <BarChart
            h={Math.max(160, r.topIssues.length * 30)}
            data={r.topIssues.map((s) => ({ title: s.title.length > 28 ? `${s.title.slice(0, 27)}…` : s.title, Alerts: s.alerts }))}
            dataKey="title"
            orientation="vertical"
            xAxisProps={{ allowDecimals: false }}
            yAxisProps={{ width: 150 }}
            series={[{ name: 'Alerts', color: 'cyan.6' }]}
            data-testid="chart-issues"
          />
        }
        table={<FigureTable caption="Top issues" testId="table-issues" header={['Issue', 'Alerts', 'Occurrences']} rows={r.topIssues.map((s) => [s.title, s.alerts, s.occurrences])} />}
        csv={{ filename: file('top-issues'), header: ['Issue', 'Alerts', 'Occurrences'], rows: r.topIssues.map((s) => [s.title, s.alerts, s.occurrences]) }}
      />
      <ReportSection
        id="responders"
        title="Responders"
        description="First acknowledgements and resolutions of this period's alerts, per person."
        chart={
          <BarChart
            h={Math.max(160, r.byResponder.length * 34)}
            data={r.byResponder.map((p) => ({ name: p.name, Acknowledged: p.acknowledged, Resolved: p.resolved }))}
            dataKey="name"
            orientation="vertical"
            xAxisProps={{ allowDecimals: false }}
            yAxisProps={{ width: 130 }}
            withLegend
            series={[
              { name: 'Acknowledged', color: 'teal.6' },
              { name: 'Resolved', color: 'blue.6' },
            ]}
            data-testid="chart-responders"
          />
        }
        table={
          r.byResponder.length ? (
            <FigureTable caption="Responders" testId="table-responders" header={['Person', 'Acknowledged', 'Resolved']} rows={r.byResponder.map((p) => [p.name, p.acknowledged, p.resolved])} />
          ) : (
            <Text c="dimmed" size="sm">
              Nobody acknowledged or resolved an alert of this period yet.
            </Text>
          )
        }
        csv={{ filename: file('responders'), header: ['Person', 'User ID', 'Acknowledged', 'Resolved'], rows: r.byResponder.map((p) => [p.name, p.userId, p.acknowledged, p.resolved]) }}
      />
      <Text size="sm" c="dimmed" data-testid="maintenance-note">
        Alerts suppressed by maintenance: {r.maintenanceSuppressed}. {REPORT_MSG.maintenanceNote}
      </Text>
    </Stack>
  );
}
