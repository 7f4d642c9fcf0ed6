import { Box, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { REPORT_MSG } from '../../../../../contract/reports.ts';
import { downloadCsv, toCsv, type CsvCell } from '../lib/csv.ts';

export interface SectionCsv {
  filename: string;
  header: readonly string[];
  rows: ReadonlyArray<readonly CsvCell[]>;
}

/** One figure of the report: its chart with its table beside it (below on a narrow window), and the table as CSV. */
export function ReportSection({ id, title, description, chart, table, csv }: { id: string; title: string; description?: string; chart: ReactNode; table: ReactNode; csv: SectionCsv }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`${id}-title`} data-testid={`report-${id}`}>
      <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
        <Stack gap={2}>
          <Title order={2} size="h4" id={`${id}-title`}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} />}
          onClick={() => downloadCsv(csv.filename, toCsv(csv.header, csv.rows))}
          aria-label={`${REPORT_MSG.exportCsv}: ${title}`}
          style={{ flexShrink: 0 }}
          data-testid={`csv-${id}`}
        >
          {REPORT_MSG.exportCsv}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Box style={{ minWidth: 0 }}>{chart}</Box>
        <Box style={{ minWidth: 0 }}>{table}</Box>
      </SimpleGrid>
    </Paper>
  );
}
