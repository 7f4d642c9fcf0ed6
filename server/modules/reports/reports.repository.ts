// The report's reads: aggregates over the alerts a tenant (or one of its clients) opened in a period, each query held
// to the tenant. Read-only: the alerts, clients and users tables belong to their modules; a report only sums them.
// One query builder for both databases; the only dialect-specific piece is how two stored ISO-8601 texts become
// seconds apart (`secondsBetween`).
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { AlertPriority } from '../../../contract/alerts.ts';
import type { DB, Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { GroupRow, QuarterHourCount, TargetPair } from './report-figures.ts';
import type { AlertFacts } from './report-tally.ts';

/** Which alerts a report covers: one tenant's opened in [from, to), optionally one client's. */
export interface ReportScope {
  tenantId: string;
  from: string;
  to: string;
  clientId: string | null;
}

type AlertsQuery = SelectQueryBuilder<Database, 'alerts', object>;

/** The alerts of the scope. Served by alerts_opened_report_idx, or alerts_client_opened_idx for one client. */
function scoped(db: DB, scope: ReportScope): AlertsQuery {
  let q = db.selectFrom('alerts').where('alerts.tenant_id', '=', scope.tenantId).where('alerts.created_at', '>=', scope.from).where('alerts.created_at', '<', scope.to);
  if (scope.clientId !== null) q = q.where('alerts.client_id', '=', scope.clientId);
  return q;
}

/**
 * The columns a report reads of each of the scope's alerts, in one walk of the index (report-tally.ts sums them): for
 * a client's report, whose alerts are few, one look-up per alert instead of one per alert and figure.
 */
export async function scopeFacts(db: DB, scope: ReportScope): Promise<AlertFacts[]> {
  return scoped(db, scope)
    .select([
      'alerts.client_id',
      'alerts.priority',
      'alerts.escalation_policy_id',
      'alerts.created_at',
      'alerts.acknowledged_at',
      'alerts.acknowledged_by',
      'alerts.resolved_at',
      'alerts.resolved_by',
      'alerts.source',
      'alerts.title',
      'alerts.occurrences',
      'alerts.maintenance_window_id',
    ])
    .execute();
}

/**
 * Seconds from `a` to `b`, two stored times (ISO-8601 UTC text with milliseconds): SQLite's unixepoch with its
 * fraction, PostgreSQL's interval in seconds. Both exact to the millisecond.
 */
export function secondsBetween(dialect: Dialect, a: string, b: string): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`cast(extract(epoch from (cast(${sql.ref(b)} as timestamptz) - cast(${sql.ref(a)} as timestamptz))) as double precision)`
    : sql<number>`(unixepoch(${sql.ref(b)}, 'subsec') - unixepoch(${sql.ref(a)}, 'subsec'))`;
}

/** A float's noise (a millisecond time as a double) must not turn "exactly on target" into "late". */
const TARGET_SLACK_SECONDS = 0.0005;

/**
 * The targets as a small table (policy, priority, seconds, the creation time before which an unacknowledged alert's
 * target has passed), joined to each alert by its policy and priority: one look-up per alert rather than a CASE
 * over every pair. Written as a union of one-row selects, which both databases read alike.
 */
function targetTable(pairs: readonly TargetPair[], now: Date) {
  const rows = pairs.map(
    (p) =>
      sql`select cast(${p.policyId} as text) as policy_id, cast(${p.priority} as text) as priority, cast(${p.seconds} as integer) as seconds, cast(${new Date(now.getTime() - p.seconds * 1000).toISOString()} as text) as passed_before`,
  );
  return sql`(${sql.join(rows, sql` union all `)})`;
}

/**
 * The period's alerts summed per (client, priority): counts, summed acknowledgement and resolution seconds, and how
 * many had a decided acknowledgement target and met it. `now` decides which targets are still to come: an alert not
 * acknowledged yet whose target has not passed is neither in nor out.
 */
export async function groupFigures(db: DB, dialect: Dialect, scope: ReportScope, pairs: readonly TargetPair[], now: Date): Promise<GroupRow[]> {
  const tta = secondsBetween(dialect, 'alerts.created_at', 'alerts.acknowledged_at');
  const ttr = secondsBetween(dialect, 'alerts.created_at', 'alerts.resolved_at');
  const withTargets = pairs.length > 0;
  const eligible = withTargets ? sql`case when t.seconds is not null and (alerts.acknowledged_at is not null or alerts.created_at <= t.passed_before) then 1 else 0 end` : sql`0`;
  const within = withTargets ? sql`case when t.seconds is not null and alerts.acknowledged_at is not null and ${tta} <= t.seconds + cast(${TARGET_SLACK_SECONDS} as double precision) then 1 else 0 end` : sql`0`;
  const target = withTargets ? sql`t.seconds` : sql`cast(null as integer)`;
  const rows = await scoped(db, scope)
    .$if(withTargets, (qb) =>
      qb.leftJoin(targetTable(pairs, now).as('t') as never, (j) =>
        j.on(sql`t.policy_id = alerts.escalation_policy_id and t.priority = alerts.priority` as never),
      ),
    )
    .select([
      'alerts.client_id as clientId',
      'alerts.priority as priority',
      sql<number>`count(*)`.as('opened'),
      sql<number>`count(alerts.acknowledged_at)`.as('acknowledged'),
      sql<number | null>`sum(${tta})`.as('ttaSum'),
      sql<number>`count(alerts.resolved_at)`.as('resolved'),
      sql<number | null>`sum(${ttr})`.as('ttrSum'),
      sql<number>`sum(${eligible})`.as('eligible'),
      sql<number>`sum(${within})`.as('within'),
      sql<number | null>`min(${target})`.as('targetMin'),
      sql<number | null>`max(${target})`.as('targetMax'),
    ])
    .groupBy(['alerts.client_id', 'alerts.priority'])
    .execute();
  return rows.map((r) => ({
    clientId: r.clientId,
    priority: r.priority as AlertPriority,
    opened: Number(r.opened),
    acknowledged: Number(r.acknowledged),
    ttaSum: Number(r.ttaSum ?? 0),
    resolved: Number(r.resolved),
    ttrSum: Number(r.ttrSum ?? 0),
    eligible: Number(r.eligible ?? 0),
    within: Number(r.within ?? 0),
    targetMin: r.targetMin === null ? null : Number(r.targetMin),
    targetMax: r.targetMax === null ? null : Number(r.targetMax),
  }));
}

/**
 * The acknowledgement (`tta`) or resolution (`ttr`) time at a 0-based position of the period's acknowledged
 * (resolved) alerts sorted by it: a percentile, given its rank. Null past the end.
 */
export async function durationAtRank(db: DB, dialect: Dialect, scope: ReportScope, which: 'tta' | 'ttr', offset: number): Promise<number | null> {
  const column = which === 'tta' ? 'alerts.acknowledged_at' : 'alerts.resolved_at';
  const row = await scoped(db, scope)
    .where(column, 'is not', null)
    .select(secondsBetween(dialect, 'alerts.created_at', column).as('seconds'))
    .orderBy('seconds')
    .limit(1)
    .offset(offset)
    .executeTakeFirst();
  return row ? Number(row.seconds) : null;
}

/** Alerts opened per UTC quarter hour (hour-of-week figures are made of these in the reader's zone). */
export async function openedPerQuarterHour(db: DB, scope: ReportScope): Promise<QuarterHourCount[]> {
  const hour = sql<string>`substr(alerts.created_at, 1, 13)`;
  const quarter = sql<number>`cast(substr(alerts.created_at, 15, 2) as integer) / 15`;
  const rows = await scoped(db, scope)
    .select([hour.as('hour'), quarter.as('quarter'), sql<number>`count(*)`.as('opened')])
    .groupBy([hour, quarter])
    .execute();
  return rows.map((r) => ({ hour: r.hour, quarter: Number(r.quarter), opened: Number(r.opened) }));
}

/** Sources by occurrences (a repeat counts), most first. */
export async function topSources(db: DB, scope: ReportScope, limit: number) {
  const rows = await scoped(db, scope)
    .select(['alerts.source as source', sql<number>`sum(alerts.occurrences)`.as('occurrences'), sql<number>`count(*)`.as('alerts')])
    .groupBy('alerts.source')
    .orderBy('occurrences', 'desc')
    .orderBy('alerts.source')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ source: r.source, occurrences: Number(r.occurrences), alerts: Number(r.alerts) }));
}

/** Alert titles by how many alerts had them, most first. */
export async function topTitles(db: DB, scope: ReportScope, limit: number) {
  const rows = await scoped(db, scope)
    .select(['alerts.title as title', sql<number>`count(*)`.as('alerts'), sql<number>`sum(alerts.occurrences)`.as('occurrences')])
    .groupBy('alerts.title')
    .orderBy('alerts', 'desc')
    .orderBy('alerts.title')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ title: r.title, alerts: Number(r.alerts), occurrences: Number(r.occurrences) }));
}

/**
 * Who acknowledged and who resolved the period's alerts: counts per user id (null: a monitoring tool through its
 * integration, which records no person).
 */
export async function responderCounts(db: DB, scope: ReportScope) {
  const [acks, resolutions] = await Promise.all([
    scoped(db, scope).where('alerts.acknowledged_at', 'is not', null).select(['alerts.acknowledged_by as userId', sql<number>`count(*)`.as('n')]).groupBy('alerts.acknowledged_by').execute(),
    scoped(db, scope).where('alerts.resolved_at', 'is not', null).select(['alerts.resolved_by as userId', sql<number>`count(*)`.as('n')]).groupBy('alerts.resolved_by').execute(),
  ]);
  return { acks: acks.map((r) => ({ userId: r.userId, n: Number(r.n) })), resolutions: resolutions.map((r) => ({ userId: r.userId, n: Number(r.n) })) };
}

/** Names of the tenant's clients among `ids`. */
export async function clientNames(db: DB, tenantId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('clients').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.id, r.name);
  }
  return out;
}

/** The tenant's client, if it is one. */
export async function findClientName(db: DB, tenantId: string, clientId: string) {
  return db.selectFrom('clients').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', '=', clientId).executeTakeFirst();
}

/**
 * Names of the people among `userIds` (who acted on the tenant's alerts), as their accounts say now; absent for an
 * account deleted since.
 */
export async function responderNames(db: DB, userIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < userIds.length; i += 500) {
    const users = await db.selectFrom('users').select(['id', 'display_name', 'email']).where('id', 'in', userIds.slice(i, i + 500)).execute();
    for (const u of users) out.set(u.id, u.display_name || u.email);
  }
  return out;
}

/** How many of the scope's alerts paged nobody (issue 25's mark): the weekly digest's warning. */
export async function pagedNobodyCount(db: DB, scope: ReportScope): Promise<number> {
  const row = await scoped(db, scope).where('alerts.paged_nobody_at', 'is not', null).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many of the scope's alerts opened inside a maintenance window (issue 31): the report's `maintenanceSuppressed`. */
export async function maintenanceCount(db: DB, scope: ReportScope): Promise<number> {
  const row = await scoped(db, scope).where('alerts.maintenance_window_id', 'is not', null).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}
