import { CompiledQuery, PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { DB } from './database.ts';

/**
 * Multi-row inserts of the hot paths (the escalation engine writes thousands of timeline entries, jobs and attempts a
 * second), without building a query tree per statement: Kysely's building of a 500-row insert cost about 15 % of the
 * engine's CPU. The SQL text is made once per table and row count; the values are bound as parameters.
 *
 * - PostgreSQL: `insert … select * from unnest($1::text[], $2::int[], …)`: one array parameter per column, so the
 *   statement has as many parameters as columns (not rows × columns) and is parsed and planned as one small query.
 * - SQLite: `insert … values (?, …), (?, …)`, whose prepared statement the connection keeps (by its text).
 */
export interface BulkInsert<R> {
  table: string;
  /** Each column with its PostgreSQL element type. */
  columns: ReadonlyArray<readonly [keyof R & string, 'text' | 'int']>;
  /** What follows the rows: `on conflict …`, `returning …`. */
  tail?: string;
}

/**
 * Rows per multi-row statement: far below both databases' limits on bound parameters (SQLite 32766, PostgreSQL
 * 65535) for the widest row we write, and small enough that one statement stays cheap to build.
 */
export const ROWS_PER_STATEMENT = 500;

/** `list` in slices of at most `size` (one statement each). */
export function chunks<T>(list: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The rows `read` finds for many keys (each distinct key once, one statement per 500), by `keyOf` of each row. */
export async function readByKeys<K, R>(keys: readonly K[], read: (part: K[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<Map<string, R>> {
  const out = new Map<string, R>();
  for (const part of chunks([...new Set(keys)])) for (const row of await read(part)) out.set(keyOf(row), row);
  return out;
}

const texts = new Map<string, string>();

/** Whether `db` talks to PostgreSQL (the bulk statements differ by dialect). */
export const isPostgres = (db: DB) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The tenant column of a statement that picks rows by their ids (`id in (…)`), written so SQLite's planner cannot pick
 * an index for it: without statistics, SQLite judges `tenant_id = ?` more selective than ten ids or more and reads the
 * tenant's whole index (alerts_opened_idx) instead of looking the ids up: 26 µs an alert in batches of 500 at 60,000
 * alerts of one tenant, growing with the tenant, against under 3 µs by the primary key. The tenant is still checked on
 * every row found. PostgreSQL's planner has statistics; it gets the plain column.
 */
export const tenantBesideIds = (db: DB, column: string): RawBuilder<string> => (isPostgres(db) ? sql<string>`${sql.ref(column)}` : sql<string>`+${sql.ref(column)}`);

/** The insert of a spec's rows from `values`: the columns, then the rows, then the tail. */
const insertText = (spec: BulkInsert<never>, values: string) =>
  `insert into "${spec.table}" (${spec.columns.map(([c]) => `"${c}"`).join(', ')}) ${values}${spec.tail ? ` ${spec.tail}` : ''}`;

/** PostgreSQL: the rows as one array parameter per column, numbered from `$first`. */
const unnestInsert = (spec: BulkInsert<never>, first: number) => insertText(spec, `select * from unnest(${spec.columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ')})`);

/** PostgreSQL: the parameters of `unnestInsert`, one array per column. */
const columnArrays = (spec: BulkInsert<never>, rows: readonly object[]) => spec.columns.map(([c]) => rows.map((r) => (r as Record<string, unknown>)[c] ?? null));

function textOf(spec: BulkInsert<never>, postgres: boolean, rows: number): string {
  const key = `${spec.table}|${spec.tail ?? ''}|${postgres ? 'pg' : rows}`;
  let text = texts.get(key);
  if (text === undefined) {
    const one = `(${spec.columns.map(() => '?').join(', ')})`;
    text = postgres ? unnestInsert(spec, 1) : insertText(spec, `values ${Array.from({ length: rows }, () => one).join(', ')}`);
    if (texts.size > 1000) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/** Inserts `rows` (one statement per 500); returns the rows the statements returned and how many rows they wrote. */
export async function bulkInsert<R extends object>(db: DB, spec: BulkInsert<R>, rows: readonly R[]): Promise<{ rows: Array<Record<string, unknown>>; written: number }> {
  const postgres = isPostgres(db);
  const out: Array<Record<string, unknown>> = [];
  let written = 0;
  for (const part of chunks(rows)) {
    const params: unknown[] = postgres ? columnArrays(spec as BulkInsert<never>, part) : [];
    if (!postgres) for (const r of part) for (const [c] of spec.columns) params.push((r as Record<string, unknown>)[c] ?? null);
    const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(textOf(spec as BulkInsert<never>, postgres, part.length), params));
    out.push(...result.rows);
    written += Number(result.numAffectedRows ?? 0);
  }
  return { rows: out, written };
}

/**
 * PostgreSQL: inserts into several tables (at most 500 rows each) and an optional last statement as ONE statement
 * (data-modifying CTEs): atomic on its own, one round trip instead of begin, one per table, commit.
 */
export async function pgWriteAtOnce(db: DB, inserts: Array<{ spec: BulkInsert<never>; rows: readonly object[] }>, last?: { text: (first: number) => string; params: unknown[] }) {
  const params: unknown[] = [];
  const ctes: string[] = [];
  for (const { spec, rows } of inserts) {
    if (rows.length === 0) continue;
    if (rows.length > ROWS_PER_STATEMENT) throw new Error('pgWriteAtOnce: too many rows');
    ctes.push(`w${ctes.length} as (${unnestInsert(spec, params.length + 1)})`);
    params.push(...columnArrays(spec, rows));
  }
  let main = 'select 1';
  if (last) {
    main = last.text(params.length + 1);
    params.push(...last.params);
  }
  if (ctes.length === 0 && !last) return;
  await db.executeQuery(CompiledQuery.raw(`${ctes.length ? `with ${ctes.join(', ')} ` : ''}${main}`, params));
}

