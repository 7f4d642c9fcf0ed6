import { Paper, SimpleGrid, Text } from '@mantine/core';
import { REPORT_MSG, type ReportSummary } from '../../../../../contract/reports.ts';
import { formatDuration, formatShare } from '../lib/period.ts';

function Stat({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={800} fz={26} data-testid={`${testId}-value`}>
        {value}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Paper>
  );
}

/** The headline figures of the period. */
export function StatCards({ r }: { r: ReportSummary }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <Stat testId="stat-opened" label="Alerts opened" value={r.opened.toLocaleString()} note={`${r.resolved.toLocaleString()} resolved`} />
      <Stat testId="stat-mtta" label="Mean time to acknowledge" value={formatDuration(r.mttaSeconds)} note={`90th percentile ${formatDuration(r.p90TtaSeconds)}`} />
      <Stat testId="stat-mttr" label="Mean time to resolve" value={formatDuration(r.mttrSeconds)} note={`90th percentile ${formatDuration(r.p90TtrSeconds)}`} />
      <Stat testId="stat-within" label="Acknowledged within target" value={formatShare(r.ackWithinTargetShare)} note={`${r.withinTarget} of ${r.targetEligible} with a target`} />
      <Stat testId="stat-never" label="Never acknowledged" value={r.neverAcknowledged.toLocaleString()} note={REPORT_MSG.neverAcknowledgedHelp} />
    </SimpleGrid>
  );
}
