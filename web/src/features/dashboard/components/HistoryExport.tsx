import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { HISTORY_MSG } from '../../../../../contract/alerts.ts';
import { refusalReason } from '../../../lib/api.ts';
import { downloadAlertHistory, saveFile, type ExportProgress } from '../api/export-alert-history.ts';
import type { HistoryView } from '../lib/history-params.ts';

type ExportState =
  | { kind: 'idle' }
  | ({ kind: 'running' } & ExportProgress)
  | { kind: 'done'; rows: number; filename: string }
  | { kind: 'empty' }
  | { kind: 'error'; error: unknown };

/** The history's CSV export: its state, and starting, cancelling and dismissing it. Leaving the page cancels it. */
export function useHistoryExport(tenantId: string, view: HistoryView) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    running.current?.abort();
    const ctrl = new AbortController();
    running.current = ctrl;
    setState({ kind: 'running', rows: 0, total: null });
    try {
      const file = await downloadAlertHistory(tenantId, view, (p) => !ctrl.signal.aborted && setState({ kind: 'running', ...p }), ctrl.signal);
      if (ctrl.signal.aborted) return;
      if (file.rows === 0) setState({ kind: 'empty' });
      else {
        saveFile(file);
        setState({ kind: 'done', rows: file.rows, filename: file.filename });
      }
    } catch (error) {
      if (!ctrl.signal.aborted) setState({ kind: 'error', error });
    } finally {
      if (running.current === ctrl) running.current = null;
    }
  };
  return {
    state,
    start: () => void start(),
    cancel: () => {
      running.current?.abort();
      setState({ kind: 'idle' });
    },
    dismiss: () => setState({ kind: 'idle' }),
  };
}
export type HistoryExporter = ReturnType<typeof useHistoryExport>;

export function HistoryExportButton({ exporter, disabled }: { exporter: HistoryExporter; disabled: boolean }) {
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      onClick={exporter.start}
      disabled={disabled}
      loading={exporter.state.kind === 'running'}
      data-testid="history-export"
    >
      {HISTORY_MSG.exportCsv}
    </Button>
  );
}

/** How the export goes: its progress while it downloads, then what became of it. */
export function HistoryExportStatus({ exporter }: { exporter: HistoryExporter }) {
  const { state } = exporter;
  if (state.kind === 'idle') return null;
  if (state.kind === 'running') {
    const share = state.total ? Math.min(100, Math.round((state.rows / state.total) * 100)) : null;
    return (
      <Alert color="blue" variant="light" mb="md" icon={<IconDownload />} data-testid="history-export-progress">
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Text size="sm" role="status" aria-live="polite">
              {HISTORY_MSG.exporting(state.rows, state.total)}
            </Text>
            <Button size="compact-sm" variant="subtle" onClick={exporter.cancel}>
              Cancel
            </Button>
          </Group>
          <Progress.Root>
            <Progress.Section value={share ?? 100} animated={share === null} striped={share === null} aria-label="Export progress" />
          </Progress.Root>
        </Stack>
      </Alert>
    );
  }
  if (state.kind === 'done')
    return (
      <Alert color="green" variant="light" mb="md" icon={<IconCheck />} withCloseButton closeButtonLabel="Dismiss" onClose={exporter.dismiss} data-testid="history-export-done">
        <Text size="sm" className="wrap-anywhere">
          {HISTORY_MSG.exported(state.rows, state.filename)}
        </Text>
      </Alert>
    );
  if (state.kind === 'empty')
    return (
      <Alert color="gray" variant="light" mb="md" icon={<IconInfoCircle />} withCloseButton closeButtonLabel="Dismiss" onClose={exporter.dismiss} data-testid="history-export-empty">
        <Text size="sm">{HISTORY_MSG.exportNothing}</Text>
      </Alert>
    );
  const reason = refusalReason(state.error);
  return (
    <Alert color="red" variant="light" mb="md" icon={<IconAlertTriangle />} title={HISTORY_MSG.exportFailed} role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={exporter.dismiss} data-testid="history-export-error">
      <Group justify={reason ? 'space-between' : 'flex-start'} gap="sm">
        {reason && <Text size="sm">{reason}</Text>}
        <Button size="compact-sm" variant="light" color="red" onClick={exporter.start}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
