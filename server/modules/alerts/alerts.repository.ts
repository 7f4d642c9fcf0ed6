import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { AlertEventsTable, AlertNotesTable, AlertsTable } from '../../db/schema.ts';
import { ACTIVE_ALERT_LIMIT, type Alert, type AlertHistoryQuery, type AlertPriority, type AlertStatus, type ActiveAlertsQuery } from '../../../contract/alerts.ts';
import { allowedActions } from './alerts.policy.ts';

// Written out literally, exactly as in the partial indexes of migration 0003, so both planners can prove that a
// query's filter implies the index's predicate (a bound parameter would hide it from them).
const ACTIVE = sql<SqlBool>`a.status in ('new', 'acknowledged', 'in_progress')`;
const HISTORY = sql<SqlBool>`a.status in ('resolved', 'closed')`;
const statusIs = (s: AlertStatus) => sql<SqlBool>`a.status = ${sql.lit(s)}`;
const priorityIs = (p: AlertPriority) => sql<SqlBool>`a.priority = ${sql.lit(p)}`;

const alertRows = (db: DB) =>
  db
    .selectFrom('alerts as a')
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 'a.client_id').onRef('c.tenant_id', '=', 'a.tenant_id'))
    .leftJoin('integrations as i', (j) => j.onRef('i.id', '=', 'a.integration_id').onRef('i.tenant_id', '=', 'a.tenant_id'))
    .leftJoin('users as u', 'u.id', 'a.assigned_to')
    .selectAll('a')
    .select(['c.name as client_name', 'i.name as integration_name', 'u.display_name as assignee_name']);

export type AlertRow = AlertsTable & { client_name: string | null; integration_name: string | null; assignee_name: string | null };

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
    tags: parseJson<string[]>(row.tags, []),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    occurrences: Number(row.occurrences),
    lastSeenAt: row.last_seen_at,
    actions: allowedActions(row.status),
  };
}

/** The active list of spec section 4: new, acknowledged and in progress, newest first, at most 100. */
export async function listActiveAlerts(db: DB, tenantId: string, filter: ActiveAlertsQuery) {
  const conditions: Expression<SqlBool>[] = [ACTIVE];
  if (filter.status !== 'all') conditions.push(statusIs(filter.status as AlertStatus));
  if (filter.priority !== 'all') conditions.push(priorityIs(filter.priority as AlertPriority));
  const where = sql.join(conditions, sql` and `);
  const [rows, count] = await Promise.all([
    alertRows(db)
      .where('a.tenant_id', '=', tenantId)
      .where(sql<SqlBool>`${where}`)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(ACTIVE_ALERT_LIMIT)
      .execute(),
    db
      .selectFrom('alerts as a')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('a.tenant_id', '=', tenantId)
      .where(sql<SqlBool>`${where}`)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AlertRow[], total: Number(count.n) };
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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Resolved and closed alerts, most recently resolved first, searchable and paginated. */
export async function listAlertHistory(db: DB, tenantId: string, q: AlertHistoryQuery) {
  const conditions: Expression<SqlBool>[] = [HISTORY];
  if (q.status !== 'all') conditions.push(statusIs(q.status as AlertStatus));
  if (q.priority !== 'all') conditions.push(priorityIs(q.priority as AlertPriority));
  if (q.clientId) conditions.push(sql<SqlBool>`a.client_id = ${q.clientId}`);
  if (q.q) conditions.push(sql<SqlBool>`a.search_text like ${`%${escapeLike(q.q.toLowerCase())}%`} escape '\\'`);
  const where = sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
  const [rows, count] = await Promise.all([
    alertRows(db)
      .where('a.tenant_id', '=', tenantId)
      .where(where)
      .orderBy('a.resolved_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    db.selectFrom('alerts as a').select((eb) => eb.fn.countAll().as('n')).where('a.tenant_id', '=', tenantId).where(where).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AlertRow[], total: Number(count.n) };
}

export async function findAlert(db: DB, tenantId: string, alertId: string): Promise<AlertRow | undefined> {
  return (await alertRows(db).where('a.tenant_id', '=', tenantId).where('a.id', '=', alertId).executeTakeFirst()) as AlertRow | undefined;
}

export async function findAlertStatus(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('alerts').select(['id', 'status']).where('tenant_id', '=', tenantId).where('id', '=', alertId).executeTakeFirst();
}

export async function listNotes(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('alert_notes').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('created_at').orderBy('id').execute();
}

export async function listEvents(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('alert_events').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('at').orderBy('id').execute();
}

export async function insertNote(db: DB, row: AlertNotesTable) {
  await db.insertInto('alert_notes').values(row).execute();
}

export async function insertEvent(db: DB, row: AlertEventsTable) {
  await db.insertInto('alert_events').values(row).execute();
}

export type AlertPatch = Partial<
  Pick<AlertsTable, 'status' | 'acknowledged_by' | 'acknowledged_at' | 'resolved_by' | 'resolved_at' | 'closed_by' | 'closed_at' | 'assigned_to' | 'updated_at'>
>;

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

/** Members who may be assigned: active members of the tenant with an account. */
export async function listAssignees(db: DB, tenantId: string) {
  return db
    .selectFrom('tenant_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.display_name', 'u.email'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.status', '=', 'active')
    .orderBy('u.display_name')
    .orderBy('u.email')
    .execute();
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
