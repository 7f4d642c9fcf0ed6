import { sql, type CompiledQuery, type SqlBool } from 'kysely';
import type { DB } from '../../../db/database.ts';
import type { AlertsTable } from '../../../db/schema.ts';
import { ESCALATION_ENDS, UPSERT_COLUMNS } from '../alerts.repository.ts';

// Exactly the predicate of the partial unique index alerts_open_dedup_uq, so both planners can use it.
const OPEN = sql<SqlBool>`status in ('new', 'acknowledged', 'in_progress')`;

/** What the ingestion upsert returns for each row: the alert it created or updated. */
export type UpsertedAlert = Pick<AlertsTable, 'id' | 'integration_id' | 'dedup_key' | 'status' | 'priority' | 'updated_at'>;

/**
 * The columns the upsert inserts: what ingestion stores of an event, and the escalation as decided at insert time
 * (issue 26; paging's escalation-start.ts), which a repeat of an open alert leaves as it is.
 */
const INSERT_COLUMNS = [...UPSERT_COLUMNS, 'escalation_state', 'escalation_policy_id', 'escalation_level', 'next_step_at', 'overdue_check_at', 'paged_nobody_at', 'paged_nobody_reason'] as const satisfies ReadonlyArray<keyof AlertsTable>;

/** What a row inserts when its escalation was not decided: the start sweep's (`pending`). */
const UNDECIDED = { escalation_state: 'pending', escalation_policy_id: null, escalation_level: 0, next_step_at: null, overdue_check_at: null, paged_nobody_at: null, paged_nobody_reason: null } as const;

/** One multi-row upsert, on the pool or inside the caller's transaction (`on`). */
export type AlertUpsert = (rows: AlertsTable[], on?: DB) => Promise<UpsertedAlert[]>;

/**
 * The trigger write of ingestion, for rows of any tenants: an insert that, when an open alert with the same
 * (tenant, integration, dedup key) exists, becomes an update of its count (`occurrences` of the row added) and
 * last-seen time, atomically on both databases, through the partial unique index alerts_open_dedup_uq. The
 * statement for n rows is compiled by Kysely once per n for this database and reused with new parameters:
 * building and compiling a 24-column statement per event would cost more than running it.
 */
export function alertUpsert(db: DB): AlertUpsert {
  const compiled = new Map<number, CompiledQuery<UpsertedAlert>>();
  const statement = (n: number) => {
    let c = compiled.get(n);
    if (c) return c;
    const placeholder = Object.fromEntries(INSERT_COLUMNS.map((col) => [col, col === 'occurrences' || col === 'escalation_level' ? 1 : 'x'])) as unknown as AlertsTable;
    c = db
      .insertInto('alerts')
      .values(Array.from({ length: n }, () => placeholder))
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'integration_id', 'dedup_key'])
          .where(OPEN)
          .doUpdateSet({
            occurrences: sql`alerts.occurrences + excluded.occurrences`,
            last_seen_at: (eb) => eb.ref('excluded.last_seen_at'),
            updated_at: (eb) => eb.ref('excluded.updated_at'),
          }),
      )
      .returning(['id', 'integration_id', 'dedup_key', 'status', 'priority', 'updated_at'])
      .compile() as CompiledQuery<UpsertedAlert>;
    if (c.parameters.length !== n * INSERT_COLUMNS.length) throw new Error('unexpected parameter layout of the alert upsert');
    compiled.set(n, c);
    return c;
  };
  return async (rows, on = db) => {
    const parameters: unknown[] = [];
    for (const r of rows) {
      const row = r.escalation_state ? r : { ...UNDECIDED, ...r };
      for (const c of INSERT_COLUMNS) parameters.push(row[c]);
    }
    const result = await on.executeQuery<UpsertedAlert>({ ...statement(rows.length), parameters });
    return result.rows;
  };
}

/**
 * A monitoring tool's acknowledge or resolve of the open alert with its key: it acknowledges only what nobody has
 * touched, and resolves whatever is still open. Returns the changed alert, or undefined when there was none.
 */
export async function applyIntegrationTransition(
  db: DB,
  tenantId: string,
  input: { integrationId: string; dedupKey: string; action: 'acknowledge' | 'resolve'; at: string },
) {
  const { at } = input;
  const acknowledge = input.action === 'acknowledge';
  return db
    .updateTable('alerts')
    .set({ ...(acknowledge ? { status: 'acknowledged', acknowledged_at: at } : { status: 'resolved', resolved_at: at }), updated_at: at, ...ESCALATION_ENDS })
    .where('tenant_id', '=', tenantId)
    .where('integration_id', '=', input.integrationId)
    .where('dedup_key', '=', input.dedupKey)
    .where(acknowledge ? sql<SqlBool>`status = 'new'` : OPEN)
    .returning(['id', 'status', 'priority', 'updated_at'])
    .executeTakeFirst();
}
