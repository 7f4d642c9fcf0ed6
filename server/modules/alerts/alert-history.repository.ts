import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB, Dialect } from '../../db/database.ts';
import { HISTORY_COUNT_LIMIT, historyBound, type AlertHistoryFilter, type AlertHistoryQuery, type AlertPriority, type AlertStatus } from '../../../contract/alerts.ts';
import { alertRows, countAlerts, HISTORY, priorityIs, searchMatches, statusIs, type AlertRow } from './alerts.repository.ts';

// The history of resolved and closed alerts: its page and count (with SQLite's trigram look-up for a text) and the
// CSV export's keyset batches. The active list, the detail and the shared conditions are alerts.repository.ts's.

const FTS_MAX_TRIGRAMS = 8;

/**
 * The FTS5 query (SQLite) for alerts whose search_text may contain `text` (lowercased): every trigram is a token of the
 * table (tokenize='trigram', detail=none), so a substring's trigrams all occur in a matching alert. Every third one
 * (and the last) covers the text and costs a third of asking for all of them; at most FTS_MAX_TRIGRAMS, spread over
 * the text (common trigrams of a long text make the lookup slower, not more selective). The result is a superset the
 * LIKE then narrows. Null when the text has fewer than 3 characters (no trigram: those read the rows with the LIKE)
 * or a NUL (FTS5 reads its query as a C string).
 */
export function trigramQuery(text: string): string | null {
  if (text.includes('\0')) return null;
  const chars = [...text]; // code points: the tokenizer's characters
  if (chars.length < 3) return null;
  const starts: number[] = [];
  for (let i = 0; i + 3 <= chars.length; i += 3) starts.push(i);
  if (starts[starts.length - 1] !== chars.length - 3) starts.push(chars.length - 3);
  const picked = starts.length <= FTS_MAX_TRIGRAMS ? starts : Array.from({ length: FTS_MAX_TRIGRAMS }, (_, k) => starts[Math.round((k * (starts.length - 1)) / (FTS_MAX_TRIGRAMS - 1))]);
  const terms = new Set(picked.map((i) => `"${chars.slice(i, i + 3).join('').replace(/"/g, '""')}"`));
  return [...terms].join(' AND ');
}

/**
 * Up to this many alerts (of every tenant) matching the trigrams, the history reads exactly those (about 2.5 µs each
 * at a million alerts: 12 ms at the limit); beyond it, walking the history index newest first and testing the LIKE
 * finds a page sooner (many matches, so a few hundred rows in: under a millisecond for a text in 10 % of them).
 */
const FTS_PAGE_LIMIT = 5_000;

/**
 * How the history finds a text on SQLite: `null` without trigrams (PostgreSQL, or fewer than 3 characters: the LIKE
 * alone); else the rowids of the alerts that may match when there are at most FTS_PAGE_LIMIT (read once, so the page
 * and its count do not ask the trigram table again), or `many` with the FTS5 query.
 */
type TrigramCandidates = null | { rowids: number[] } | { many: string };

async function trigramCandidates(db: DB, dialect: Dialect, text: string): Promise<TrigramCandidates> {
  const fts = dialect === 'sqlite' ? trigramQuery(text.toLowerCase()) : null;
  if (!fts) return null;
  const { rows } = await sql<{ rowid: number }>`select rowid from alerts_fts where alerts_fts match ${fts} limit ${FTS_PAGE_LIMIT + 1}`.execute(db);
  return rows.length > FTS_PAGE_LIMIT ? { many: fts } : { rowids: rows.map((r) => r.rowid) };
}

/**
 * The history's filters (status, priority, client, resolution range, text) as one condition, with the FTS5 query when
 * SQLite's trigram table found many candidates (a count then goes through it); null when the trigram table already
 * says nothing matches. On SQLite a text of 3 characters or more is looked up in the trigram table first
 * (`trigramCandidates`).
 */
async function historyWhere(db: DB, dialect: Dialect, tenantId: string, f: AlertHistoryFilter): Promise<{ where: Expression<SqlBool>; fts: string | null } | null> {
  const conditions: Expression<SqlBool>[] = [HISTORY];
  if (f.status !== 'all') conditions.push(statusIs(f.status as AlertStatus));
  if (f.priority !== 'all') conditions.push(priorityIs(f.priority as AlertPriority));
  if (f.clientId) conditions.push(sql<SqlBool>`a.client_id = ${f.clientId}`);
  // Both ends included; the contract checked that they are instants (a date alone: its whole UTC day).
  const since = f.from ? historyBound(f.from) : null;
  const until = f.to ? historyBound(f.to, true) : null;
  if (since) conditions.push(sql<SqlBool>`a.resolved_at >= ${since}`);
  if (until) conditions.push(sql<SqlBool>`a.resolved_at <= ${until}`);
  const candidates = f.q ? await trigramCandidates(db, dialect, f.q) : null;
  if (candidates && 'rowids' in candidates) {
    // No alert holds every trigram: none holds the text.
    if (candidates.rowids.length === 0) return null;
    // Few: page and count read just those (the planner drives the query from the list).
    conditions.push(sql<SqlBool>`a.rowid in (select value from json_each(${JSON.stringify(candidates.rowids)}))`);
  }
  // Many (or no trigram table): the history index newest first, testing the LIKE.
  if (f.q) conditions.push(searchMatches(f.q));
  return { where: sql<SqlBool>`${sql.join(conditions, sql` and `)}`, fts: candidates && 'many' in candidates ? candidates.many : null };
}

/** How many history alerts of the tenant match `where` (through the trigram table when it has an FTS5 query), up to `cap` + 1. */
const countHistory = (db: DB, tenantId: string, found: { where: Expression<SqlBool>; fts: string | null }, cap?: number) =>
  found.fts ? countTrigramMatches(db, tenantId, found.fts, found.where, cap ?? Number.MAX_SAFE_INTEGER - 1) : countAlerts(db, tenantId, found.where, cap);

/**
 * Resolved and closed alerts, most recently resolved first, filtered, searchable and paginated; counted up to
 * HISTORY_COUNT_LIMIT.
 */
export async function listAlertHistory(db: DB, dialect: Dialect, tenantId: string, q: AlertHistoryQuery) {
  const found = await historyWhere(db, dialect, tenantId, q);
  if (!found) return { rows: [], total: 0, totalCapped: false };
  const [rows, count] = await Promise.all([
    alertRows(db, tenantId)
      .where(found.where)
      .orderBy('a.resolved_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    countHistory(db, tenantId, found, HISTORY_COUNT_LIMIT),
  ]);
  return { rows: rows as AlertRow[], total: Math.min(count, HISTORY_COUNT_LIMIT), totalCapped: count > HISTORY_COUNT_LIMIT };
}

/**
 * The export reads alerts with a resolution time only: its keyset walks (resolved_at, id), and a key without a time
 * would end the walk there. Every history alert has one (close is allowed from resolved alone; an integration's
 * resolve sets it), so this leaves nothing out in practice; the count says the same.
 */
const RESOLVED = sql<SqlBool>`a.resolved_at is not null`;

/** How many alerts the history export of these filters holds (exact: the export's progress is measured against it). */
export async function countHistoryExport(db: DB, dialect: Dialect, tenantId: string, f: AlertHistoryFilter): Promise<number> {
  const found = await historyWhere(db, dialect, tenantId, f);
  return found ? countHistory(db, tenantId, { ...found, where: sql<SqlBool>`${found.where} and ${RESOLVED}` }) : 0;
}

/** One row of the export: what the CSV shows, names looked up, the description cut in the query already. */
export interface HistoryExportRow {
  id: string;
  title: string;
  priority: AlertPriority;
  status: AlertStatus;
  client_name: string | null;
  source: string;
  created_at: string;
  acknowledged_by: string | null;
  acknowledged_by_name: string | null;
  acknowledged_at: string | null;
  resolved_by: string | null;
  resolved_by_name: string | null;
  resolved_at: string;
  closed_by: string | null;
  closed_by_name: string | null;
  closed_at: string | null;
  integration_name: string | null;
  occurrences: number;
  description: string;
}

/**
 * The filtered history for the export, most recently resolved first, `size` rows a query. Each query starts after
 * the last row of the previous one (keyset on (resolved_at, id), the order of alerts_history_idx), never at an offset,
 * so every page costs the same; nothing is held between two queries (no transaction, no cursor): SQLite's one
 * connection and PostgreSQL's pool serve other requests in between. The next query runs only when the consumer asks
 * for more. Descriptions are read up to `descriptionChars` + 1 characters (the CSV cuts them).
 */
export async function* historyExportBatches(
  db: DB,
  dialect: Dialect,
  tenantId: string,
  f: AlertHistoryFilter,
  opts: { size: number; descriptionChars: number },
): AsyncGenerator<HistoryExportRow[]> {
  const found = await historyWhere(db, dialect, tenantId, f);
  if (!found) return;
  const page = db
    .selectFrom('alerts as a')
    .select(['a.id', 'a.title', 'a.priority', 'a.status', 'a.source', 'a.created_at', 'a.acknowledged_by', 'a.acknowledged_at', 'a.resolved_by', 'a.closed_by', 'a.closed_at', 'a.occurrences'])
    .select((eb) => [
      sql<string>`a.resolved_at`.as('resolved_at'),
      sql<string>`substr(a.description, 1, ${opts.descriptionChars + 1})`.as('description'),
      eb.selectFrom('clients as c').select('c.name').whereRef('c.id', '=', 'a.client_id').whereRef('c.tenant_id', '=', 'a.tenant_id').as('client_name'),
      eb.selectFrom('integrations as i').select('i.name').whereRef('i.id', '=', 'a.integration_id').whereRef('i.tenant_id', '=', 'a.tenant_id').as('integration_name'),
      eb.selectFrom('users as u').select('u.display_name').whereRef('u.id', '=', 'a.acknowledged_by').as('acknowledged_by_name'),
      eb.selectFrom('users as u').select('u.display_name').whereRef('u.id', '=', 'a.resolved_by').as('resolved_by_name'),
      eb.selectFrom('users as u').select('u.display_name').whereRef('u.id', '=', 'a.closed_by').as('closed_by_name'),
    ])
    .where('a.tenant_id', '=', tenantId)
    .where(found.where)
    .where(RESOLVED)
    .orderBy('a.resolved_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(opts.size);
  let after: { resolvedAt: string; id: string } | null = null;
  for (;;) {
    // `resolved_at <= k` is the index range; the rest drops the rows of the same time up to the last one read.
    const rows: HistoryExportRow[] = (await (after
      ? page.where(sql<SqlBool>`a.resolved_at <= ${after.resolvedAt} and (a.resolved_at < ${after.resolvedAt} or a.id < ${after.id})`)
      : page
    ).execute()) as HistoryExportRow[];
    if (rows.length === 0) return;
    const last = rows[rows.length - 1];
    after = { resolvedAt: last.resolved_at, id: last.id };
    yield rows;
    if (rows.length < opts.size) return;
  }
}

/**
 * countAlerts for a text with trigrams (SQLite): the alerts the trigram table gives, one by one (a cross join keeps
 * that order of the loops), so counting stops once past the cap however many there are (a materialised
 * `rowid in (…)` would first collect every one of them).
 */
async function countTrigramMatches(db: DB, tenantId: string, fts: string, where: Expression<SqlBool>, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from alerts_fts as f cross join alerts as a on a.rowid = f.rowid where f.alerts_fts match ${fts} and a.tenant_id = ${tenantId} and ${where} limit ${cap + 1}) as m`.execute(db);
  return Number(rows[0].n);
}
