import { Readable } from 'node:stream';
import {
  HISTORY_EXPORT_BATCH,
  HISTORY_EXPORT_COLUMNS,
  HISTORY_EXPORT_DESCRIPTION_CHARS,
  type AlertHistoryFilter,
} from '../../../contract/alerts.ts';
import type { TenantsTable } from '../../db/schema.ts';
import type { DB, Dialect } from '../../db/database.ts';
import { countHistoryExport, historyExportBatches, type HistoryExportRow } from './alert-history.repository.ts';

/**
 * The CSV export of the alert history (issue 32): RFC 4180 (every record ends in CRLF; a cell holding a comma, a
 * double quote, CR or LF is quoted, its quotes doubled), UTF-8 with a byte order mark. Without the mark, Excel on
 * Windows, where most of our users open it, reads the file as Windows-1252 and garbles every name with an accent
 * (the response's charset does not survive saving to disk); other tools skip it or show it once before the first
 * header, which is why that header is not "ID" either (Excel takes a file starting with "ID" for SYLK).
 */
export const CSV_BOM = '\uFEFF';

/**
 * A cell that a spreadsheet would run as a formula (=, +, - or @ first, or a tab or CR, which some of them skip
 * before looking) gets a leading apostrophe: shown as text, never evaluated (formula injection: an alert's title
 * comes from whoever can reach an ingestion endpoint).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: empty for null, numbers as they are, text defused and quoted as needed. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record, CRLF-terminated. */
export const csvRecord = (cells: ReadonlyArray<string | number | null>) => `${cells.map(csvCell).join(',')}\r\n`;

/** A description as the export keeps it: trimmed, and cut to HISTORY_EXPORT_DESCRIPTION_CHARS characters with "…". */
export function exportDescription(text: string, max = HISTORY_EXPORT_DESCRIPTION_CHARS): string {
  const trimmed = text.trim();
  // Counted in code points (as the query's substr cut it), so a cut never splits an emoji.
  let count = 0;
  let end = 0;
  for (const ch of trimmed) {
    if (count === max) return `${trimmed.slice(0, end).trimEnd()}…`;
    count++;
    end += ch.length;
  }
  return trimmed;
}

/**
 * Who did it: the person's name (they may since have left: "Unknown User"); without a person, the alert's
 * integration when the time is set (an integration's acknowledge or resolve names nobody); else empty.
 */
const actor = (userId: string | null, name: string | null, at: string | null, integration: string | null) =>
  userId ? (name ?? 'Unknown User') : at ? integration : null;

export function historyExportRecord(r: HistoryExportRow): string {
  return csvRecord([
    r.id,
    r.title,
    r.priority,
    r.status,
    r.client_name,
    r.source,
    r.created_at,
    actor(r.acknowledged_by, r.acknowledged_by_name, r.acknowledged_at, r.integration_name),
    r.acknowledged_at,
    actor(r.resolved_by, r.resolved_by_name, r.resolved_at, r.integration_name),
    r.resolved_at,
    actor(r.closed_by, r.closed_by_name, r.closed_at, r.integration_name),
    r.closed_at,
    Number(r.occurrences),
    exportDescription(r.description),
  ]);
}

/** The export's file name: `alert-history-<tenant>-<UTC date>.csv`, the tenant's name as a plain ASCII slug. */
export function historyExportFilename(tenant: Pick<TenantsTable, 'id' | 'name'>, now: Date): string {
  const slug = tenant.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `alert-history-${slug || tenant.id}-${now.toISOString().slice(0, 10)}.csv`;
}

/** The CSV text: the mark and the header, then one chunk per batch of rows. */
export async function* historyCsv(batches: AsyncIterable<HistoryExportRow[]>): AsyncGenerator<string> {
  yield CSV_BOM + csvRecord(HISTORY_EXPORT_COLUMNS);
  for await (const rows of batches) {
    let chunk = '';
    for (const row of rows) chunk += historyExportRecord(row);
    yield chunk;
  }
}

/**
 * The tenant's filtered history as a CSV download: how many rows it holds (counted first, so a database that is away
 * answers 503 before anything is sent), its file name, and the body as a byte stream. The stream is pulled: the next
 * batch is read only when everything before it has been taken by the connection (or the compressor in front of it),
 * which is the `drain` of a writer made implicit, so a slow client or a 100,000-row export holds about one batch in
 * memory. A client that goes away destroys the stream, which ends the generator: no further query runs.
 */
export async function exportAlertHistory(db: DB, dialect: Dialect, tenant: Pick<TenantsTable, 'id' | 'name'>, filter: AlertHistoryFilter, now = new Date()) {
  const total = await countHistoryExport(db, dialect, tenant.id, filter);
  const batches = historyExportBatches(db, dialect, tenant.id, filter, { size: HISTORY_EXPORT_BATCH, descriptionChars: HISTORY_EXPORT_DESCRIPTION_CHARS });
  return {
    total,
    filename: historyExportFilename(tenant, now),
    body: Readable.from(historyCsv(batches), { objectMode: false }),
  };
}
