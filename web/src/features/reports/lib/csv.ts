/**
 * Client-side CSV of a report's table (RFC 4180: comma-separated, CRLF lines, a field quoted when it holds a comma, a
 * quote or a line break, quotes doubled). A text cell starting with = + - @ (or a tab or carriage return) is prefixed
 * with ' so a spreadsheet shows it as text instead of running it as a formula (CSV injection: client and source names
 * and alert titles come from monitoring tools and people). Numbers are written as numbers.
 */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A file name from words: lower case, dashes, nothing a file system dislikes. */
export const csvFileName = (...parts: string[]) =>
  `${parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}.csv`;

/** Saves the text as a file through a temporary link (UTF-8 with a byte-order mark, which Excel needs for accents). */
export function downloadCsv(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
