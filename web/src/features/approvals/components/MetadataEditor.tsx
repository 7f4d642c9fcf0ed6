import { useId } from 'react';
import { ActionIcon, Badge, Button, Group, Input, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { APPROVAL_MSG } from '../../../../../contract/approvals.ts';
import { emptyRow, objectOfRows, parseMetadata, rowsOf, textOf, type MetadataRow, type RowProblems } from '../lib/metadata.ts';

export type MetadataView = 'rows' | 'json';
export interface MetadataState {
  view: MetadataView;
  rows: MetadataRow[];
  text: string;
}

export const initialMetadata = (): MetadataState => ({ view: 'rows', rows: [emptyRow()], text: '' });

/** What the form sends from the view in use, or why it cannot (rows: by row; JSON: one message). */
export function readMetadata(s: MetadataState): { value: Record<string, unknown> | undefined; problems: Map<number, RowProblems>; error: string | null } {
  if (s.view === 'rows') return { ...objectOfRows(s.rows), error: null };
  return { ...parseMetadata(s.text), problems: new Map() };
}

const VIEWS = [
  { value: 'rows', label: 'Key / value' },
  { value: 'json', label: 'JSON' },
];

/**
 * Metadata as key/value rows, or as JSON text for those who want it. Switching carries the value over, so both views
 * say the same; it waits until the view in use is valid (the rows' problems, or the JSON's, show meanwhile).
 */
export function MetadataEditor({ state, onChange, error, onError }: { state: MetadataState; onChange: (s: MetadataState) => void; error?: string; onError: (message: string | null) => void }) {
  const id = useId();
  const { rows } = state;
  const problems = state.view === 'rows' ? objectOfRows(rows).problems : new Map<number, RowProblems>();

  const setRows = (next: MetadataRow[]) => {
    onChange({ ...state, rows: next });
    onError(null);
  };
  const editRow = (rowId: number, patch: Partial<MetadataRow>) =>
    setRows(
      rows.map((r) => {
        if (r.id !== rowId) return r;
        const next = { ...r, ...patch };
        // An emptied JSON value is no longer JSON: what is typed next is text.
        return next.json && !next.value.trim() ? { ...next, json: false } : next;
      }),
    );
  const removeRow = (rowId: number) => {
    const left = rows.filter((r) => r.id !== rowId);
    setRows(left.length ? left : [emptyRow()]);
  };

  const switchTo = (view: string) => {
    if (view === state.view) return;
    if (view === 'json') {
      const made = objectOfRows(rows);
      if (made.problems.size) return onError(APPROVAL_MSG.metadataFixRows);
      onChange({ ...state, view: 'json', text: textOf(made.value) });
    } else {
      const parsed = parseMetadata(state.text);
      if (parsed.error) return onError(parsed.error);
      onChange({ ...state, view: 'rows', rows: rowsOf(parsed.value) });
    }
    onError(null);
  };

  const lone = rows.length === 1 && !rows[0]!.key && !rows[0]!.value;
  return (
    <Stack gap={6} data-testid="metadata-editor">
      <div>
        <Group justify="space-between" align="center" gap="xs" wrap="nowrap">
          <Input.Label id={`${id}-label`}>Metadata</Input.Label>
          <SegmentedControl size="xs" data={VIEWS} value={state.view} onChange={switchTo} aria-label="Metadata view" />
        </Group>
        <Input.Description id={`${id}-description`} mt={4}>
          {state.view === 'rows'
            ? 'Optional details, e.g. amount and currency. Values are saved as text; those marked JSON keep their type.'
            : 'Optional details as a JSON object, e.g. {"amount": 120, "currency": "EUR"}'}
        </Input.Description>
      </div>
      {state.view === 'rows' ? (
        <Stack gap="xs" role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-description`}>
          {rows.map((row, i) => {
            const p = problems.get(row.id);
            return (
              <Group key={row.id} gap="xs" wrap="nowrap" align="flex-start" data-testid="metadata-row">
                <TextInput
                  aria-label={`Key ${i + 1}`}
                  placeholder="Key"
                  value={row.key}
                  onChange={(e) => editRow(row.id, { key: e.currentTarget.value })}
                  error={p?.key}
                  maxLength={200}
                  className="min-w-0"
                  style={{ flex: 2 }}
                />
                <TextInput
                  aria-label={`Value ${i + 1}`}
                  placeholder="Value"
                  value={row.value}
                  onChange={(e) => editRow(row.id, { value: e.currentTarget.value })}
                  error={p?.value}
                  spellCheck={!row.json}
                  styles={row.json ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
                  rightSection={
                    row.json ? (
                      <Badge size="xs" variant="light" color="gray" title="A JSON value: it keeps its type">
                        JSON
                      </Badge>
                    ) : undefined
                  }
                  rightSectionWidth={row.json ? 52 : undefined}
                  rightSectionPointerEvents="none"
                  className="min-w-0"
                  style={{ flex: 3 }}
                />
                <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Remove row ${i + 1}`} onClick={() => removeRow(row.id)} disabled={lone} className="no-shrink">
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            );
          })}
          <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => setRows([...rows, emptyRow()])} w="fit-content">
            Add row
          </Button>
        </Stack>
      ) : (
        <Textarea
          aria-label="Metadata (JSON)"
          autosize
          minRows={3}
          maxRows={10}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={state.text}
          onChange={(e) => {
            onChange({ ...state, text: e.currentTarget.value });
            onError(null);
          }}
          onBlur={() => onError(parseMetadata(state.text).error)}
          error={error}
        />
      )}
      {state.view === 'rows' && error ? (
        <Input.Error role="alert" data-testid="metadata-error">
          {error}
        </Input.Error>
      ) : null}
    </Stack>
  );
}
