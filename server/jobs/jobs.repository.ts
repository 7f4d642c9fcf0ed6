import { sql } from 'kysely';
import type { DB, Dialect } from '../db/database.ts';
import type { JobsTable } from '../db/schema.ts';
import { timeOrderedUuid as timeOrderedId } from '../lib/ids.ts';

/** A job to schedule: `uniqueKey` makes scheduling idempotent (a second enqueue with the same key does nothing). */
export interface NewJob {
  kind: string;
  uniqueKey: string;
  dueAt: Date;
  payload: Record<string, unknown>;
  tenantId?: string | null;
  alertId?: string | null;
  maxAttempts?: number;
}

/**
 * Rows per multi-row statement: far below both databases' limits on bound parameters (SQLite 32766, PostgreSQL
 * 65535) for the widest row we write (12 columns), and small enough that one statement stays cheap to build.
 */
export const ROWS_PER_STATEMENT = 500;

/** `list` in slices of at most `size` (one statement each). */
export function chunks<T>(list: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Schedules jobs (on the pool or inside the caller's transaction), a multi-row insert per 500; returns how many were new. */
export async function enqueueJobs(db: DB, jobs: NewJob[], at: Date): Promise<number> {
  if (jobs.length === 0) return 0;
  const rows: JobsTable[] = jobs.map((j) => ({
    id: timeOrderedId(),
    tenant_id: j.tenantId ?? null,
    alert_id: j.alertId ?? null,
    kind: j.kind,
    unique_key: j.uniqueKey,
    payload: JSON.stringify(j.payload),
    due_at: j.dueAt.toISOString(),
    attempts: 0,
    max_attempts: j.maxAttempts ?? 3,
    lock_token: null,
    locked_until: null,
    created_at: at.toISOString(),
  }));
  let inserted = 0;
  for (const part of chunks(rows)) {
    const r = await db.insertInto('jobs').values(part).onConflict((oc) => oc.column('unique_key').doNothing()).executeTakeFirst();
    inserted += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/**
 * Claims up to `limit` due jobs for one worker: each gets this claim's token and a lease until `leaseUntil`, and its
 * attempt count goes up. PostgreSQL skips rows another worker is claiming (FOR UPDATE SKIP LOCKED); SQLite runs one
 * write at a time, so the single UPDATE is the claim. A job whose lease ran out (its worker died) is claimable again.
 */
export async function claimDueJobs(db: DB, dialect: Dialect, input: { now: Date; leaseUntil: Date; token: string; limit: number }) {
  const now = input.now.toISOString();
  const due = db
    .selectFrom('jobs')
    .select('id')
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('due_at')
    .limit(input.limit)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
  return db
    .updateTable('jobs')
    .set({ lock_token: input.token, locked_until: input.leaseUntil.toISOString(), attempts: sql<number>`attempts + 1` })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

/** Removes finished jobs (one statement per 500), only those this claim still holds. */
export async function completeJobs(db: DB, ids: string[], token: string) {
  for (const part of chunks(ids)) await db.deleteFrom('jobs').where('lock_token', '=', token).where('id', 'in', part).execute();
}

/** Puts failed jobs back for a later try (releases the lease), only those this claim still holds. */
export async function retryJobsAt(db: DB, ids: string[], token: string, dueAt: Date) {
  for (const part of chunks(ids))
    await db.updateTable('jobs').set({ due_at: dueAt.toISOString(), lock_token: null, locked_until: null }).where('lock_token', '=', token).where('id', 'in', part).execute();
}

/** When the next job falls due (ignoring leased ones), or null with none. */
export async function nextDueAt(db: DB): Promise<Date | null> {
  const row = await db.selectFrom('jobs').select((eb) => eb.fn.min('due_at').as('due')).executeTakeFirst();
  return row?.due ? new Date(String(row.due)) : null;
}

/** Cancels every job of an alert (inside the transaction that acknowledges, resolves or closes it). */
export async function cancelAlertJobs(db: DB, tenantId: string, alertId: string) {
  await db.deleteFrom('jobs').where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).execute();
}

/** Jobs of an alert still to run (tests and the alert modal). */
export async function listAlertJobs(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('jobs').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('due_at').execute();
}
