// The report's reads, each held to one tenant: the facts of the alerts a tenant (or one of its clients) opened in a
// period (report-tally.ts sums them), and the stored rollups of its settled alerts (report-rollups.ts). The alerts,
// clients and users tables belong to their modules and are only read here. One query builder for both databases.
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AlertFacts } from './report-tally.ts';

/** Which alerts a report covers: one tenant's opened in [from, to), optionally one client's. */
export interface ReportScope {
  tenantId: string;
  from: string;
  to: string;
  clientId: string | null;
}

type AlertsQuery = SelectQueryBuilder<Database, 'alerts', object>;

/** The alerts of the scope. Served by alerts_opened_idx, or alerts_client_opened_idx for one client. */
function scoped(db: DB, scope: ReportScope): AlertsQuery {
  let q = db.selectFrom('alerts').where('alerts.tenant_id', '=', scope.tenantId).where('alerts.created_at', '>=', scope.from).where('alerts.created_at', '<', scope.to);
  if (scope.clientId !== null) q = q.where('alerts.client_id', '=', scope.clientId);
  return q;
}

/** The columns of an alert a report reads. */
const FACT_COLUMNS = [
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
] as const;

/**
 * The columns a report reads of each of the scope's alerts, in one walk of the index (report-tally.ts sums them): for
 * a client's report, whose alerts are few, one look-up per alert instead of one per alert and figure.
 */
export async function scopeFacts(db: DB, scope: ReportScope): Promise<AlertFacts[]> {
  return scoped(db, scope).select(FACT_COLUMNS).execute();
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

// --- Stored rollups (migration 0035; report-rollups.ts decides when to write them) ---

type RollupTables = {
  report_rollup_state: RollupState & { tenant_id: string };
  report_rollups: { tenant_id: string; hour: string; settled_to: string; payload: string };
};
type RollupDB = Kysely<Database & RollupTables>;
const rollupDb = (db: DB): RollupDB => db.withTables<RollupTables>() as RollupDB;

/** What a tenant's stored rollups cover (see migration 0035). Hours are ISO texts of UTC hour starts. */
export type RollupState = {
  generation: string;
  targets: string;
  covered_from: string;
  covered_to: string;
  settled_to: string;
};

export async function rollupState(db: DB, tenantId: string): Promise<RollupState | undefined> {
  return rollupDb(db).selectFrom('report_rollup_state').select(['generation', 'targets', 'covered_from', 'covered_to', 'settled_to']).where('tenant_id', '=', tenantId).executeTakeFirst();
}

export interface RollupRow {
  hour: string;
  settled_to: string;
  payload: string;
}

/**
 * Writes `rows` and moves the tenant's state from `expected` (undefined: none, or one to throw away with its rows) to
 * `next`, in one transaction; false, writing nothing, when another process moved the state first.
 */
export async function writeRollups(db: DB, tenantId: string, expected: RollupState | undefined, replace: boolean, next: RollupState, rows: readonly RollupRow[]): Promise<boolean> {
  try {
    return await rollupDb(db)
      .transaction()
      .execute(async (trx) => {
        // A new state starts from no rows (none should be left without one, but a sum must never count twice).
        if (replace || expected === undefined) await trx.deleteFrom('report_rollups').where('tenant_id', '=', tenantId).execute();
        if (replace) await trx.deleteFrom('report_rollup_state').where('tenant_id', '=', tenantId).execute();
        if (expected === undefined || replace) {
          const made = await trx
            .insertInto('report_rollup_state')
            .values({ tenant_id: tenantId, ...next })
            .onConflict((oc) => oc.column('tenant_id').doNothing())
            .executeTakeFirst();
          if (Number(made.numInsertedOrUpdatedRows ?? 0) !== 1) throw new Lost();
        } else {
          const moved = await trx
            .updateTable('report_rollup_state')
            .set(next)
            .where('tenant_id', '=', tenantId)
            .where('generation', '=', expected.generation)
            .where('covered_from', '=', expected.covered_from)
            .where('covered_to', '=', expected.covered_to)
            .where('settled_to', '=', expected.settled_to)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) throw new Lost();
        }
        for (let i = 0; i < rows.length; i += 200) {
          await trx
            .insertInto('report_rollups')
            .values(rows.slice(i, i + 200).map((r) => ({ tenant_id: tenantId, ...r })))
            .onConflict((oc) => oc.columns(['tenant_id', 'hour', 'settled_to']).doUpdateSet((eb) => ({ payload: eb.ref('excluded.payload') })))
            .execute();
        }
        return true;
      });
  } catch (e) {
    if (e instanceof Lost) return false;
    throw e;
  }
}

class Lost extends Error {}

/** The stored rows of hours in [fromHour, toHour) whose watermark is in (after, upTo] (after null: any). */
export async function rollupRows(db: DB, tenantId: string, fromHour: string, toHour: string, after: string | null, upTo: string): Promise<Array<Pick<RollupRow, 'payload'>>> {
  return rollupDb(db)
    .selectFrom('report_rollups')
    .select('payload')
    .where('tenant_id', '=', tenantId)
    .where('hour', '>=', fromHour)
    .where('hour', '<', toHour)
    .$if(after !== null, (q) => q.where('settled_to', '>', after!))
    .where('settled_to', '<=', upTo)
    .execute();
}

// Written out, not bound: SQLite takes a partial index (alerts_history_idx, alerts_active_idx) only when the query's
// own terms show its condition, and a bound list shows nothing (it then scanned the table).
const SETTLED = sql<SqlBool>`alerts.status in ('resolved', 'closed')`;
const UNSETTLED = sql<SqlBool>`alerts.status in ('new', 'acknowledged', 'in_progress')`;

/**
 * The tenant's alerts created in [from, to) and settled (resolved or closed: nothing of theirs a report reads changes
 * any more) at or before `settledTo`: what a rollup of those hours holds.
 */
export async function settledFacts(db: DB, tenantId: string, from: string, to: string, settledTo: string): Promise<AlertFacts[]> {
  return scoped(db, { tenantId, from, to, clientId: null })
    .where(SETTLED)
    .where('alerts.resolved_at', '<=', settledTo)
    .select(FACT_COLUMNS)
    .execute();
}

/** The tenant's alerts created in [from, to) and settled in (after, upTo]: through alerts_history_idx. */
export async function factsSettledBetween(db: DB, tenantId: string, from: string, to: string, after: string, upTo: string): Promise<AlertFacts[]> {
  return db
    .selectFrom('alerts')
    .where('alerts.tenant_id', '=', tenantId)
    .where(SETTLED)
    .where('alerts.resolved_at', '>', after)
    .where('alerts.resolved_at', '<=', upTo)
    .where('alerts.created_at', '>=', from)
    .where('alerts.created_at', '<', to)
    .select(FACT_COLUMNS)
    .execute();
}

/**
 * What the rollups of [from, to) at watermark `settledTo` leave out: the alerts still open (alerts_active_idx) and
 * those settled since (alerts_history_idx), plus every alert of `edges` (the parts of the period outside whole
 * hours). One statement, so one snapshot: an alert settling meanwhile is counted once, and one round trip.
 */
export async function unsettledFacts(db: DB, tenantId: string, from: string, to: string, settledTo: string, edges: ReadonlyArray<[string, string]>): Promise<AlertFacts[]> {
  const tenant = () => db.selectFrom('alerts').where('alerts.tenant_id', '=', tenantId);
  const parts = [
    ...(from < to
      ? [
          tenant().where(UNSETTLED).where('alerts.created_at', '>=', from).where('alerts.created_at', '<', to).select(FACT_COLUMNS),
          tenant().where(SETTLED).where('alerts.resolved_at', '>', settledTo).where('alerts.created_at', '>=', from).where('alerts.created_at', '<', to).select(FACT_COLUMNS),
        ]
      : []),
    ...edges.map(([a, b]) => tenant().where('alerts.created_at', '>=', a).where('alerts.created_at', '<', b).select(FACT_COLUMNS)),
  ];
  if (parts.length === 0) return [];
  return parts.reduce((all, part) => all.unionAll(part)).execute();
}
