import { sql, type Expression, type SqlBool } from 'kysely';
import { tenantBesideIds } from '../../db/bulk-insert.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { AlertEventsTable, AlertNotesTable, AlertsTable } from '../../db/schema.ts';
import { ASSIGNEE_NONE, type Alert, type AlertPriority, type AlertStatus, type ActiveAlertsQuery } from '../../../contract/alerts.ts';
import { allowedActions } from './alerts.policy.ts';
import { JSON_LIMITS } from '../../../contract/common.ts';

// Written out literally, exactly as in the partial indexes of migration 0003, so both planners can prove that a
// query's filter implies the index's predicate (a bound parameter would hide it from them).
const ACTIVE = sql<SqlBool>`a.status in ('new', 'acknowledged', 'in_progress')`;
export const HISTORY = sql<SqlBool>`a.status in ('resolved', 'closed')`;
export const statusIs = (s: AlertStatus) => sql<SqlBool>`a.status = ${sql.lit(s)}`;
export const priorityIs = (p: AlertPriority) => sql<SqlBool>`a.priority = ${sql.lit(p)}`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The text search of the active list and the history: a case-insensitive substring of search_text (stored lowercased),
 * `%` and `_` literal. This LIKE always decides what matches; the trigram indexes of migration 0012 only narrow the rows
 * it reads. PostgreSQL's planner uses the trigram index for this very LIKE by itself (3 characters or more); SQLite's
 * FTS5 table is asked explicitly by the history (`trigramCandidates`, alert-history.repository.ts).
 */
export const searchMatches = (q: string) => sql<SqlBool>`a.search_text like ${likeContains(q)} escape '\\'`;
const likeContains = (q: string) => `%${escapeLike(q.toLowerCase())}%`;

/**
 * The same search for the active list, out of the trigram index's reach: the list reads only the tenant's open alerts
 * (a partial index, a few thousand at most), while the index would hand PostgreSQL's planner every matching alert of
 * the whole history first (a text in 10 % of a million alerts: 17–40 ms instead of 1–2 ms). `|| ''` makes it an
 * expression no index covers; the result is the same.
 */
const searchMatchesUnindexed = (q: string) => sql<SqlBool>`(a.search_text || '') like ${likeContains(q)} escape '\\'`;

/**
 * The tenant's alerts with the names they show: the client's and the integration's (of the same tenant) and the assignee's.
 * The names are scalar look-ups by primary key rather than joins: the same rows, while PostgreSQL plans the query in a
 * third of the time (a join order of four tables is searched on every execution) and runs it faster.
 */
export const alertRows = (db: DB, tenantId: string, byIds = false) =>
  db
    .selectFrom('alerts as a')
    // Picked by ids, the ids lead (`tenantBesideIds`).
    .where(byIds ? tenantBesideIds(db, 'a.tenant_id') : sql.ref('a.tenant_id'), '=', tenantId)
    .select(SHOWN_COLUMNS.map((c) => `a.${c}` as const))
    .select((eb) => [
      eb.selectFrom('clients as c').select('c.name').whereRef('c.id', '=', 'a.client_id').whereRef('c.tenant_id', '=', 'a.tenant_id').as('client_name'),
      eb.selectFrom('integrations as i').select('i.name').whereRef('i.id', '=', 'a.integration_id').whereRef('i.tenant_id', '=', 'a.tenant_id').as('integration_name'),
      eb.selectFrom('users as u').select('u.display_name').whereRef('u.id', '=', 'a.assigned_to').as('assignee_name'),
      // Issue 30: the alert's PSA ticket (its first connection's, once the PSA answered its number).
      eb.selectFrom('psa_tickets as pt').select('pt.ticket_number').whereRef('pt.alert_id', '=', 'a.id').whereRef('pt.tenant_id', '=', 'a.tenant_id').where('pt.ticket_number', 'is not', null).orderBy('pt.created_at').limit(1).as('ticket_number'),
      eb.selectFrom('psa_tickets as pt').select('pt.ticket_url').whereRef('pt.alert_id', '=', 'a.id').whereRef('pt.tenant_id', '=', 'a.tenant_id').where('pt.ticket_number', 'is not', null).orderBy('pt.created_at').limit(1).as('ticket_url'),
    ]);

/** What replaces a part of stored JSON nested deeper than JSON_LIMITS.depth. */
export const TOO_DEEP_MARKER = '[nested too deeply]';

/**
 * Stored JSON cut down to JSON_LIMITS.depth levels, without recursion: whatever lies deeper becomes TOO_DEEP_MARKER.
 * Ingestion refuses deeper input, but a row stored before that (or written by hand) must not break a list: a value
 * thousands of levels deep would overflow the response serializer's stack.
 */
export function boundDepth(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const stack: Array<[Record<string, unknown> | unknown[], number]> = [[value as Record<string, unknown>, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    const keys: Array<string | number> = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (const k of keys) {
      const item = (v as Record<string | number, unknown>)[k];
      if (!item || typeof item !== 'object') continue;
      if (depth + 1 > JSON_LIMITS.depth) (v as Record<string | number, unknown>)[k] = TOO_DEEP_MARKER;
      else stack.push([item as Record<string, unknown>, depth + 1]);
    }
  }
  return value;
}

/** Stored metadata as an object: unreadable JSON becomes `{}`, any other JSON value `{value}`, depth bounded. */
function storedMetadata(text: string | null): Record<string, unknown> {
  const v = boundDepth(parseJson<unknown>(text, {}));
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
}

/** Stored tags as a list of strings, whatever the column holds. */
function storedTags(text: string | null): string[] {
  const v = parseJson<unknown>(text, []);
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
}

export type AlertRow = Pick<AlertsTable, ShownColumn> & { client_name: string | null; integration_name: string | null; assignee_name: string | null; ticket_number?: string | null; ticket_url?: string | null };

export function toAlert(row: AlertRow): Alert {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    clientId: row.client_id,
    clientName: row.client_name,
    integrationId: row.integration_id,
    integrationName: row.integration_name,
    dedupKey: row.dedup_key,
    title: row.title,
    description: row.description,
    priority: row.priority,
    status: row.status,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    acknowledgedBy: row.acknowledged_by,
    acknowledgedAt: row.acknowledged_at,
    resolvedBy: row.resolved_by,
    resolvedAt: row.resolved_at,
    closedBy: row.closed_by,
    closedAt: row.closed_at,
    assignedTo: row.assigned_to,
    assigneeName: row.assigned_to ? (row.assignee_name ?? 'Unknown User') : null,
    tags: storedTags(row.tags),
    metadata: storedMetadata(row.metadata),
    occurrences: Number(row.occurrences),
    lastSeenAt: row.last_seen_at,
    // Overdue matters while nobody has acknowledged it; once someone has, the badge goes.
    overdueAt: row.status === 'new' ? (row.overdue_at ?? null) : null,
    // A fact of its escalation, kept whatever happens to the alert after.
    pagedNobody: row.paged_nobody_at && row.paged_nobody_reason ? { at: row.paged_nobody_at, reason: row.paged_nobody_reason } : null,
    // Issue 31: a fact of its opening, kept; a snooze matters while nobody has acknowledged it.
    maintenanceWindowId: row.maintenance_window_id ?? null,
    snoozedUntil: row.status === 'new' ? (row.snoozed_until ?? null) : null,
    ticket: row.ticket_number ? { number: row.ticket_number, url: row.ticket_url ?? null } : null,
    actions: allowedActions(row.status),
  };
}

/**
 * Urgency rank of a priority (critical 0 … info 4), written out literally: it is the expression of the partial index
 * alerts_active_rank_idx (migration 0011), and both planners use that index only for exactly this expression.
 */
const PRIORITY_RANK = sql<number>`(case a.priority when 'critical' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 when 'info' then 4 else 5 end)`;

/** Issue 30: the alert has a PSA ticket with its number (as its card shows it), through psa_tickets_by_alert. */
const HAS_TICKET = sql<SqlBool>`exists (select 1 from psa_tickets pt where pt.tenant_id = a.tenant_id and pt.alert_id = a.id and pt.ticket_number is not null)`;

/** The active list's filters, with the assignee resolved: a user id, ASSIGNEE_NONE, or none. */
export type ActiveAlertsFilter = Omit<ActiveAlertsQuery, 'assignee'> & { assignee?: string };

/**
 * The active list of spec section 4 (new, acknowledged and in progress), a page at a time: by urgency, the longest
 * waiting first within a priority (sort `priority`), or newest first (sort `newest`); the id makes the order total.
 * `total` counts every match, not only the page.
 */
export async function listActiveAlerts(db: DB, tenantId: string, filter: ActiveAlertsFilter) {
  const conditions: Expression<SqlBool>[] = [ACTIVE];
  if (filter.status !== 'all') conditions.push(statusIs(filter.status as AlertStatus));
  if (filter.priority !== 'all') conditions.push(priorityIs(filter.priority as AlertPriority));
  if (filter.clientId) conditions.push(sql<SqlBool>`a.client_id = ${filter.clientId}`);
  if (filter.assignee === ASSIGNEE_NONE) conditions.push(sql<SqlBool>`a.assigned_to is null`);
  else if (filter.assignee) conditions.push(sql<SqlBool>`a.assigned_to = ${filter.assignee}`);
  if (filter.q) conditions.push(searchMatchesUnindexed(filter.q));
  if (filter.hasTicket !== undefined) conditions.push(filter.hasTicket ? HAS_TICKET : sql<SqlBool>`not ${HAS_TICKET}`);
  const where = sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
  let page = alertRows(db, tenantId).where(where);
  page =
    filter.sort === 'newest'
      ? page.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc')
      : page.orderBy(PRIORITY_RANK).orderBy('a.created_at', 'asc').orderBy('a.id', 'asc');
  const [rows, count] = await Promise.all([
    page
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    countAlerts(db, tenantId, where),
  ]);
  return { rows: rows as AlertRow[], total: count };
}

/**
 * How many alerts of the tenant match `where`; with a cap, counting stops one past it (the history's pages need "how
 * many" only as far as anyone pages, and counting a million resolved alerts costs a second).
 */
export async function countAlerts(db: DB, tenantId: string, where: Expression<SqlBool>, cap?: number): Promise<number> {
  const matching = db.selectFrom('alerts as a').where('a.tenant_id', '=', tenantId).where(where);
  const row =
    cap === undefined
      ? await matching.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
      : await db
          .selectFrom(matching.select(sql<number>`1`.as('one')).limit(cap + 1).as('m'))
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active alerts of the tenant by priority: every one of them, not only the 100 the list shows. */
export async function countActiveByPriority(db: DB, tenantId: string) {
  const rows = await db
    .selectFrom('alerts as a')
    .select(['a.priority', (eb) => eb.fn.countAll().as('n')])
    .where('a.tenant_id', '=', tenantId)
    .where(ACTIVE)
    .groupBy('a.priority')
    .execute();
  const by: Record<AlertPriority, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const r of rows) if (r.priority in by) by[r.priority] = Number(r.n);
  return by;
}

/**
 * How many alerts of the tenant (any status) were marked as having paged nobody since `since`: read from the partial
 * index of marked alerts (migration 0018), so the count costs the marked alerts of the window alone.
 */
export async function countPagedNobodySince(db: DB, tenantId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('paged_nobody_at', 'is not', null)
    .where('paged_nobody_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the tenant has any alert at all, whatever its status (one indexed row at most). */
export async function hasAnyAlert(db: DB, tenantId: string): Promise<boolean> {
  const row = await db.selectFrom('alerts').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function findAlert(db: DB, tenantId: string, alertId: string): Promise<AlertRow | undefined> {
  return (await alertRows(db, tenantId).where('a.id', '=', alertId).executeTakeFirst()) as AlertRow | undefined;
}

/** Several alerts of one tenant by id, as lists show them (the live stream's changes of a moment). */
export async function findAlertsByIds(db: DB, tenantId: string, ids: string[]): Promise<AlertRow[]> {
  if (ids.length === 0) return [];
  return (await alertRows(db, tenantId, true).where('a.id', 'in', ids).execute()) as AlertRow[];
}

export async function findAlertStatus(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('alerts').select(['id', 'status']).where('tenant_id', '=', tenantId).where('id', '=', alertId).executeTakeFirst();
}

/**
 * The escalation's standing of an alert as its timeline tells it: its state and the governing policy's name (an
 * unrouted alert's entry is made from these, not stored).
 */
export async function findEscalationStanding(db: DB, tenantId: string, alertId: string) {
  return db
    .selectFrom('alerts as a')
    .leftJoin('escalation_policies as p', (j) => j.onRef('p.id', '=', 'a.escalation_policy_id').onRef('p.tenant_id', '=', 'a.tenant_id'))
    .leftJoin('maintenance_windows as w', (j) => j.onRef('w.id', '=', 'a.maintenance_window_id').onRef('w.tenant_id', '=', 'a.tenant_id'))
    .select(['a.escalation_state', 'a.escalation_policy_id', 'p.name as policy_name', 'a.maintenance_window_id', 'w.name as maintenance_window_name'])
    .where('a.tenant_id', '=', tenantId)
    .where('a.id', '=', alertId)
    .executeTakeFirst();
}

export async function listNotes(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('alert_notes').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('created_at').orderBy('id').execute();
}

/**
 * The alert's stored timeline entries. Pages are read from their attempts (`listPageOutcomes`) and the overdue mark
 * from the alert's overdue_at, so stored entries of those two kinds are left out (they would say it twice).
 */
export async function listEvents(db: DB, tenantId: string, alertId: string) {
  return db
    .selectFrom('alert_events')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('alert_id', '=', alertId)
    .where('kind', 'not in', ['paged', 'overdue'])
    .orderBy('at')
    .orderBy('id')
    .execute();
}

export async function insertNote(db: DB, row: AlertNotesTable) {
  await db.insertInto('alert_notes').values(row).execute();
}

export async function insertEvent(db: DB, row: AlertEventsTable) {
  await db.insertInto('alert_events').values(row).execute();
}

export type AlertPatch = Partial<
  Pick<
    AlertsTable,
    'status' | 'acknowledged_by' | 'acknowledged_at' | 'resolved_by' | 'resolved_at' | 'closed_by' | 'closed_at' | 'assigned_to' | 'updated_at' | 'next_step_at' | 'overdue_check_at'
  >
>;

/**
 * Part of a status change that ends the alert's escalation (acknowledge, start work, resolve, close): its next level and
 * overdue check are cleared in the very update that changes the status (its escalation jobs are deleted beside it).
 */
export const ESCALATION_ENDS = { next_step_at: null, overdue_check_at: null } as const satisfies AlertPatch;

/**
 * Applies a change only while the alert is in one of `from` (a compare-and-set on the status), so two people acting
 * at once cannot both succeed. Returns the changed row's key fields, or undefined when nothing matched.
 */
export async function updateAlertIfStatus(db: DB, tenantId: string, alertId: string, from: readonly AlertStatus[], set: AlertPatch) {
  return db
    .updateTable('alerts')
    .set(set)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', alertId)
    .where('status', 'in', from)
    .returning(['id', 'status', 'priority', 'dedup_key', 'updated_at'])
    .executeTakeFirst();
}

// Snooze (issue 31; alert-snooze.ts).
export type ChangedAlert = Pick<AlertsTable, 'id' | 'status' | 'priority' | 'dedup_key' | 'updated_at'>;

/** Snoozes an alert still new; its pages not sent yet are dropped. Undefined when it is not new (or not there). */
export async function snoozeIfNew(db: DB, tenantId: string, alertId: string, until: string, at: string): Promise<ChangedAlert | undefined> {
  const running = sql<boolean>`escalation_state = 'running'`;
  return db
    .updateTable('alerts')
    .set({
      snoozed_until: until,
      updated_at: at,
      escalation_level: sql<number>`case when ${running} then 0 else escalation_level end`,
      next_step_at: sql<string | null>`case when ${running} then ${until} else next_step_at end`,
      overdue_check_at: sql<string | null>`case when ${running} then null else overdue_check_at end`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', alertId)
    .where(sql<SqlBool>`status = 'new'`)
    .returning(['id', 'status', 'priority', 'dedup_key', 'updated_at'])
    .executeTakeFirst();
}

/** Ends a snooze still in force (it is kept as ended now): level 1 of a held escalation falls due now. */
export async function unsnoozeIfSnoozed(db: DB, tenantId: string, alertId: string, at: string): Promise<ChangedAlert | undefined> {
  return db
    .updateTable('alerts')
    .set({
      snoozed_until: at,
      updated_at: at,
      next_step_at: sql<string | null>`case when escalation_state = 'running' and escalation_level = 0 and next_step_at > ${at} then ${at} else next_step_at end`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', alertId)
    .where(sql<SqlBool>`status = 'new'`)
    .where('snoozed_until', '>', at)
    .returning(['id', 'status', 'priority', 'dedup_key', 'updated_at'])
    .executeTakeFirst();
}

export async function findAssignee(db: DB, tenantId: string, userId: string) {
  return db
    .selectFrom('tenant_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.display_name'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.user_id', '=', userId)
    .where('m.status', '=', 'active')
    .executeTakeFirst();
}

/**
 * The columns ingestion writes, in the order of its batched upsert's parameters (laid out row by row:
 * ingest/ingest.repository.ts).
 */
export const UPSERT_COLUMNS = [
  'id',
  'tenant_id',
  'client_id',
  'integration_id',
  'dedup_key',
  'title',
  'description',
  'priority',
  'status',
  'source',
  'search_text',
  'created_at',
  'updated_at',
  'acknowledged_by',
  'acknowledged_at',
  'resolved_by',
  'resolved_at',
  'closed_by',
  'closed_at',
  'assigned_to',
  'tags',
  'metadata',
  'occurrences',
  'last_seen_at',
  // Issue 31: the maintenance window it opened inside, decided with its escalation (paging's escalation-start.ts).
  'maintenance_window_id',
] as const satisfies ReadonlyArray<keyof AlertsTable>;

/**
 * What lists and the detail show of an alert (`toAlert`, the timeline): the columns ingestion writes but the search
 * text, and the overdue and paged-nobody marks; not the escalation's bookkeeping, which the active list would otherwise read, parse and
 * drop a hundred times per request.
 */
type ShownColumn = Exclude<(typeof UPSERT_COLUMNS)[number], 'search_text'> | 'overdue_at' | 'paged_nobody_at' | 'paged_nobody_reason' | 'snoozed_until';
const SHOWN_COLUMNS: readonly ShownColumn[] = [
  ...UPSERT_COLUMNS.filter((c): c is Exclude<typeof c, 'search_text'> => c !== 'search_text'),
  'overdue_at',
  'paged_nobody_at',
  'paged_nobody_reason',
  'snoozed_until',
];

/** New alerts per UTC day since `since` (deliberately unscoped: platform analytics for super admins). */
export async function unsafeCountAlertsPerDay(db: DB, since: string) {
  // substr() over ISO-8601 text gives the UTC day on both databases; alerts_created_priority_idx (migration 0004)
  // serves this query and the next.
  const { rows } = await sql<{ day: string; n: number }>`select substr(created_at, 1, 10) as day, count(*) as n from alerts where created_at >= ${since} group by substr(created_at, 1, 10)`.execute(db);
  return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
}

/** New alerts per priority since `since` (deliberately unscoped: platform analytics for super admins). */
export async function unsafeCountAlertsByPriority(db: DB, since: string) {
  const { rows } = await sql<{ priority: string; n: number }>`select priority, count(*) as n from alerts where created_at >= ${since} group by priority`.execute(db);
  return rows.map((r) => ({ priority: r.priority, count: Number(r.n) }));
}
