import { APPROVAL_MSG } from '../../../../../contract/approvals.ts';

/**
 * The request form's metadata, edited as key/value rows or as JSON text; both stand for the JSON object the server
 * accepts (`metadata`). A row's value is text, unless it came from JSON as something else (a number, true/false,
 * null, a list or an object): then it stays JSON, so switching views never turns 2 into "2".
 */
export interface MetadataRow {
  id: number;
  key: string;
  value: string;
  /** The value is a JSON value, not text. */
  json: boolean;
}

export interface RowProblems {
  key?: string;
  value?: string;
}

/** The server refuses these names anywhere in a body (prototype pollution). */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

let lastId = 0;
export const emptyRow = (): MetadataRow => ({ id: ++lastId, key: '', value: '', json: false });

const isBlank = (r: MetadataRow) => !r.key.trim() && !r.value.trim();

/**
 * The metadata box's text as a JSON object: empty is no metadata; text that is not JSON is 'Invalid JSON format'
 * (unlike the spec's form, which then created the request with empty metadata, we stop and say so).
 */
export function parseMetadata(text: string): { value: Record<string, unknown> | undefined; error: string | null } {
  if (!text.trim()) return { value: undefined, error: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { value: undefined, error: APPROVAL_MSG.invalidJson };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { value: undefined, error: APPROVAL_MSG.metadataNotObject };
  return { value: parsed as Record<string, unknown>, error: null };
}

/** Rows of an object, in its order: text as it is, anything else as its JSON. At least one (empty) row. */
export function rowsOf(value: Record<string, unknown> | undefined): MetadataRow[] {
  const rows = Object.entries(value ?? {}).map(([key, v]) =>
    typeof v === 'string' ? { ...emptyRow(), key, value: v } : { ...emptyRow(), key, value: JSON.stringify(v), json: true },
  );
  return rows.length ? rows : [emptyRow()];
}

/**
 * The object the rows make, or what is wrong with them by row id: a key is required (unless the whole row is
 * empty, which is skipped), used once (compared trimmed, as sent), not a reserved name; a JSON value must parse.
 * No rows with content is no metadata (undefined).
 */
export function objectOfRows(rows: MetadataRow[]): { value: Record<string, unknown> | undefined; problems: Map<number, RowProblems> } {
  const problems = new Map<number, RowProblems>();
  const add = (id: number, p: RowProblems) => problems.set(id, { ...problems.get(id), ...p });
  const entries: Array<[string, unknown]> = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (isBlank(row)) continue;
    const key = row.key.trim();
    if (!key) add(row.id, { key: APPROVAL_MSG.metadataKeyRequired });
    else if (RESERVED_KEYS.has(key)) add(row.id, { key: APPROVAL_MSG.metadataKeyReserved });
    else if (seen.has(key)) add(row.id, { key: APPROVAL_MSG.metadataKeyTwice });
    seen.add(key);
    let value: unknown = row.value;
    if (row.json) {
      try {
        value = JSON.parse(row.value);
      } catch {
        add(row.id, { value: APPROVAL_MSG.invalidJson });
      }
    }
    entries.push([key, value]);
  }
  if (problems.size) return { value: undefined, problems };
  // fromEntries defines own properties, so no key can reach a prototype.
  return { value: entries.length ? Object.fromEntries(entries) : undefined, problems };
}

/** The JSON view's text of an object: indented; nothing for no metadata. */
export const textOf = (value: Record<string, unknown> | undefined) => (value && Object.keys(value).length ? JSON.stringify(value, null, 2) : '');
